here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
cd $here/p3105; for k in c_volatile c_ubias c_longcmp c_volatile_one post5; do $here/probe/runi $k.cl x.bin; done
