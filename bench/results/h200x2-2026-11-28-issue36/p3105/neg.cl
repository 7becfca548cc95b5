__kernel void k(const __global int* restrict x, __global int* restrict out) { const int i = get_global_id(0); int a = x[i]; out[i] = as_int(-(uint)a); }
