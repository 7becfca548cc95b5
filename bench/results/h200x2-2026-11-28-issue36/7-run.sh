here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source $here/env.sh
nvidia-smi -L
for f in $here/repro7/*.json; do echo "== $(basename $f)"; TESSERA_DEVICE=NVIDIA timeout 60 $here/bin/tessera_fuzz --replay $f > /tmp/r.txt 2>&1; echo "rc $?"; grep -c "tessera_cond(" /tmp/r.txt; tail -1 /tmp/r.txt; done
cd /tmp; for s in 6005 6009 6010; do TESSERA_DEVICE=NVIDIA TESSERA_CACHE_DIR=/tmp/c$s timeout 200 $here/bin/tessera_fuzz --seed $s --cases 1000 --out /tmp/f$s > /tmp/l$s.txt 2>&1 & done; wait
for s in 6005 6009 6010; do echo "seed $s: $(tail -1 /tmp/l$s.txt)"; done
