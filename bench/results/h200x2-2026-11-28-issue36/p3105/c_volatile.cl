int post5(int a) { volatile int c1 = (a % 7) > as_int(-(uint)a); int X = c1 ? (a % 7) : as_int(-(uint)a); volatile int c2 = as_int((uint)a * (uint)a) < a; int Y = c2 ? as_int((uint)a * (uint)a) : a; volatile int c3 = X > Y; return (c3 ? X : Y) % 100003; }
__kernel void k(const __global int* restrict x, __global int* restrict out) { const int i = get_global_id(0); out[i] = post5(x[i]); }
