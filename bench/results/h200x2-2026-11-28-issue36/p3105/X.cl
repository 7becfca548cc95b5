int X(int a) { return (((a % 7) > as_int(-(uint)a)) ? (a % 7) : as_int(-(uint)a)); }
__kernel void k(const __global int* restrict x, __global int* restrict out) { const int i = get_global_id(0); out[i] = X(x[i]); }
