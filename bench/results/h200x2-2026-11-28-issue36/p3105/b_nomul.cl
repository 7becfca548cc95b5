int post5(int a) { int m = a % 7; int n = as_int(-(uint)a); int X = m > n ? m : n; int Y = a; return (X > Y ? X : Y) % 100003; }
__kernel void k(const __global int* restrict x, __global int* restrict out) { const int i = get_global_id(0); out[i] = post5(x[i]); }
