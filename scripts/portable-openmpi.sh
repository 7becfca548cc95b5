#!/usr/bin/env bash
# Copies this machine's Open MPI (Debian's openmpi-bin, libpmix2) into a folder that runs on a
# machine without Open MPI (the device machines: Ubuntu, nothing installable), for the multi-GPU
# measurements of BENCHMARKS.md. Usage: scripts/portable-openmpi.sh DIR; then on the other machine
#   source DIR/env.sh && mpirun -np 4 ...
# Open MPI is relocated by OPAL_PREFIX and PMIx by PMIX_PREFIX; components that need
# network libraries the copy leaves out (UCX, libfabric, verbs, PSM) are not copied.
set -euo pipefail
dest=${1:?usage: scripts/portable-openmpi.sh DIR}
arch=x86_64-linux-gnu
ompi=/usr/lib/$arch/openmpi/lib
pmix=/usr/lib/$arch/pmix2
rm -rf "$dest"
mkdir -p "$dest/bin" "$dest/lib/$arch/openmpi/lib/openmpi3" "$dest/lib/$arch/pmix2/lib" "$dest/share" "$dest/deps"
cp -L /usr/bin/orterun /usr/bin/orted "$dest/bin/"
ln -s orterun "$dest/bin/mpirun"
cp -a "$ompi"/lib{mpi,mpi_cxx,open-pal,open-rte,mca_common_sm,mca_common_monitoring,mca_common_ompio}.so* \
  "$dest/lib/$arch/openmpi/lib/"
for c in "$ompi"/openmpi3/*.so; do
  case $(basename "$c") in
    *ucx* | *ofi* | *openib* | *psm* | *verbs* | *usnic* | *romio* | *java*) ;;
    *) cp "$c" "$dest/lib/$arch/openmpi/lib/openmpi3/" ;;
  esac
done
cp -a "$pmix"/lib/libpmix.so* "$dest/lib/$arch/pmix2/lib/"
cp -a "$pmix"/lib/pmix "$dest/lib/$arch/pmix2/lib/"
cp -a "$pmix"/share "$dest/lib/$arch/pmix2/"
cp -a /usr/share/openmpi "$dest/share/"
# Every shared library they need beyond glibc and the C++ runtime, which every Linux has.
find "$dest" -type f \( -name '*.so*' -o -path '*/bin/*' \) -exec ldd {} \; 2>/dev/null |
  awk '/=> \//{print $3}' | sort -u |
  grep -v -E '/(libc|libm|libdl|librt|libpthread|ld-linux-x86-64|libstdc\+\+|libgcc_s)\.so' |
  grep -v "^$ompi\|^$pmix" | while read -r lib; do cp -L "$lib" "$dest/deps/"; done
find "$dest" -type f \( -name '*.so*' -o -path '*/bin/*' \) -exec strip --strip-unneeded {} \; 2>/dev/null || true
cat >"$dest/env.sh" <<'ENV'
_ompi=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export OPAL_PREFIX=$_ompi PMIX_PREFIX=$_ompi/lib/x86_64-linux-gnu/pmix2
export PMIX_MCA_mca_base_component_path=$_ompi/lib/x86_64-linux-gnu/pmix2/lib/pmix
export PATH=$_ompi/bin:$PATH
export LD_LIBRARY_PATH=$_ompi/lib/x86_64-linux-gnu/openmpi/lib:$_ompi/lib/x86_64-linux-gnu/pmix2/lib:$_ompi/deps:${LD_LIBRARY_PATH:-}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mca_base_component_show_load_errors=0 PMIX_MCA_pcompress_base_silence_warning=1
ENV
du -sh "$dest"
