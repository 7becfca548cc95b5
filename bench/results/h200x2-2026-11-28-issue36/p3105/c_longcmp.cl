int post5(int a) { long m = a % 7, n = -(long)a; long X = m > n ? m : n; long q = (long)as_int((uint)a * (uint)a); long Y = q < a ? q : a; return (int)((X > Y ? X : Y) % 100003); }
__kernel void k(const __global int* restrict x, __global int* restrict out) { const int i = get_global_id(0); out[i] = post5(x[i]); }
