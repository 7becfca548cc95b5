int post5(int a) { volatile int n0 = as_int(-(uint)a); int n = n0; int X = ((a % 7) > n) ? (a % 7) : n; int Y = (as_int((uint)a * (uint)a) < a) ? as_int((uint)a * (uint)a) : a; return ((X > Y) ? X : Y) % 100003; }
__kernel void k(const __global int* restrict x, __global int* restrict out) { const int i = get_global_id(0); out[i] = post5(x[i]); }
