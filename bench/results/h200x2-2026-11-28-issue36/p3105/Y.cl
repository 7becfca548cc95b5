int Y(int a) { return ((as_int((uint)a * (uint)a) < (((a % 2) == 0) ? a : a)) ? as_int((uint)a * (uint)a) : (((a % 2) == 0) ? a : a)); }
__kernel void k(const __global int* restrict x, __global int* restrict out) { const int i = get_global_id(0); out[i] = Y(x[i]); }
