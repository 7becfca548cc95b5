int post5(int a) { int m = a % 7; int n = as_int(-(uint)a); int X = select(n, m, m > n); int q = as_int((uint)a * (uint)a); int Y = select(a, q, q < a); return select(Y, X, X > Y) % 100003; }
__kernel void k(const __global int* restrict x, __global int* restrict out) { const int i = get_global_id(0); out[i] = post5(x[i]); }
