int post5(int a) { int X = max(a % 7, as_int(-(uint)a)); int Y = min(as_int((uint)a * (uint)a), a); return max(X, Y) % 100003; }
__kernel void k(const __global int* restrict x, __global int* restrict out) { const int i = get_global_id(0); out[i] = post5(x[i]); }
