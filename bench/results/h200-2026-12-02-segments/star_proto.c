// Feasibility prototype (not part of tessera): how fast can a 3-D star of radius R (f32) run on
// this device with hand-written OpenCL? Interior points only; checked against the naive kernel.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char* kSource =
    "#define IDX(x,y,z) ((size_t)(z)*NX*NY + (size_t)(y)*NX + (x))\n"
    "#define W0 0.25f\n"
    "#define WX(d) (0.01f*(d)+0.02f)\n"
    "#define WY(d) (0.015f*(d)+0.01f)\n"
    "#define WZ(d) (0.02f*(d)+0.005f)\n"
    "kernel void copy4(global const float4* restrict in, global float4* restrict out) {\n"
    "  size_t i = get_global_id(0); out[i] = in[i]; }\n"
    "kernel void naive(global const float* restrict in, global float* restrict out) {\n"
    "  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
    "  if (x < R || y < R || z < R || x >= NX-R || y >= NY-R || z >= NZ-R) return;\n"
    "  float s = W0*in[IDX(x,y,z)];\n"
    "  #pragma unroll\n"
    "  for (int d = 1; d <= R; ++d) s += WX(d)*(in[IDX(x-d,y,z)]+in[IDX(x+d,y,z)])\n"
    "     + WY(d)*(in[IDX(x,y-d,z)]+in[IDX(x,y+d,z)]) + WZ(d)*(in[IDX(x,y,z-d)]+in[IDX(x,y,z+d)]);\n"
    "  out[IDX(x,y,z)] = s; }\n"
    // a work-item a column segment of S planes, the column's 2R+1 values in registers
    "kernel void zmarch(global const float* restrict in, global float* restrict out) {\n"
    "  int x = get_global_id(0), y = get_global_id(1), z0 = get_global_id(2)*S;\n"
    "  if (x < R || y < R || x >= NX-R || y >= NY-R) return;\n"
    "  int zb = max(z0, R), ze = min(z0+S, NZ-R);\n"
    "  float c[2*R+1];\n"
    "  #pragma unroll\n"
    "  for (int k = 0; k < 2*R; ++k) c[k+1] = in[IDX(x,y,zb-R+k)];\n"
    "  for (int z = zb; z < ze; ++z) {\n"
    "    #pragma unroll\n"
    "    for (int k = 0; k < 2*R; ++k) c[k] = c[k+1];\n"
    "    c[2*R] = in[IDX(x,y,z+R)];\n"
    "    float s = W0*c[R];\n"
    "    #pragma unroll\n"
    "    for (int d = 1; d <= R; ++d) s += WX(d)*(in[IDX(x-d,y,z)]+in[IDX(x+d,y,z)])\n"
    "       + WY(d)*(in[IDX(x,y-d,z)]+in[IDX(x,y+d,z)]) + WZ(d)*(c[R-d]+c[R+d]);\n"
    "    out[IDX(x,y,z)] = s; } }\n"
    // a work-item 4 points along x (float4), its column in registers, x neighbours from the two
    // float4 beside it, y neighbours as float4 loads
    "float4 xs(float4 l, float4 c, float4 r, int d) {\n"
    "  float a[12] = {l.x,l.y,l.z,l.w,c.x,c.y,c.z,c.w,r.x,r.y,r.z,r.w};\n"
    "  return (float4)(a[4-d]+a[4+d], a[5-d]+a[5+d], a[6-d]+a[6+d], a[7-d]+a[7+d]); }\n"
    "kernel void zmarch4(global const float* restrict in, global float* restrict out) {\n"
    "  int x = get_global_id(0)*4, y = get_global_id(1), z0 = get_global_id(2)*S;\n"
    "  if (x < 4 || y < R || x >= NX-4 || y >= NY-R) return;\n"
    "  int zb = max(z0, R), ze = min(z0+S, NZ-R);\n"
    "  float4 c[2*R+1];\n"
    "  #pragma unroll\n"
    "  for (int k = 0; k < 2*R; ++k) c[k+1] = vload4(0, in + IDX(x,y,zb-R+k));\n"
    "  for (int z = zb; z < ze; ++z) {\n"
    "    #pragma unroll\n"
    "    for (int k = 0; k < 2*R; ++k) c[k] = c[k+1];\n"
    "    c[2*R] = vload4(0, in + IDX(x,y,z+R));\n"
    "    float4 l = vload4(0, in + IDX(x-4,y,z)), r = vload4(0, in + IDX(x+4,y,z));\n"
    "    float4 s = W0*c[R];\n"
    "    #pragma unroll\n"
    "    for (int d = 1; d <= R; ++d) s += WX(d)*xs(l,c[R],r,d)\n"
    "       + WY(d)*(vload4(0, in + IDX(x,y-d,z))+vload4(0, in + IDX(x,y+d,z))) + WZ(d)*(c[R-d]+c[R+d]);\n"
    "    vstore4(s, 0, out + IDX(x,y,z)); } }\n";

#define CHECK(e)                                                                                    \
  do {                                                                                              \
    cl_int err_ = (e);                                                                              \
    if (err_ != CL_SUCCESS) {                                                                       \
      fprintf(stderr, "%s:%d: OpenCL error %d\n", __FILE__, __LINE__, err_);                       \
      exit(1);                                                                                      \
    }                                                                                               \
  } while (0)

static cl_context ctx;
static cl_command_queue q;
static cl_device_id dev;

static double time_kernel(cl_kernel k, int dims, const size_t* global, const size_t* local) {
  double t[7];
  for (int rep = 0; rep < 7; ++rep) {
    cl_event ev;
    CHECK(clEnqueueNDRangeKernel(q, k, dims, NULL, global, local, 0, NULL, &ev));
    CHECK(clWaitForEvents(1, &ev));
    cl_ulong a, b;
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof a, &a, NULL);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof b, &b, NULL);
    t[rep] = (b - a) * 1e-6;
    clReleaseEvent(ev);
  }
  for (int i = 0; i < 7; ++i) // median
    for (int j = i + 1; j < 7; ++j)
      if (t[j] < t[i]) {
        double s = t[i];
        t[i] = t[j];
        t[j] = s;
      }
  return t[3];
}

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 512, radius = argc > 2 ? atoi(argv[2]) : 4;
  const char* want = argc > 3 ? argv[3] : "NVIDIA";
  cl_platform_id plats[8];
  cl_uint np = 0;
  CHECK(clGetPlatformIDs(8, plats, &np));
  int found = 0;
  for (cl_uint p = 0; p < np && !found; ++p) {
    char name[256];
    clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (strstr(name, want) && clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) == 0)
      found = 1;
  }
  if (!found) {
    fprintf(stderr, "no platform %s\n", want);
    return 1;
  }
  char dname[256];
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof dname, dname, NULL);
  cl_int err;
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  CHECK(err);
  const size_t points = (size_t)n * n * n, bytes = points * 4;
  float* h = malloc(bytes);
  for (size_t i = 0; i < points; ++i)
    h[i] = (float)((i * 2654435761u) % 1000) / 1000.0f;
  cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, h, &err);
  CHECK(err);
  cl_mem ref = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
  cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
  CHECK(err);
  int segments[] = {16, 32, 64, 128, 512};
  printf("%s, %d^3 f32, star radius %d; copy roofline and the times of one launch (median of 7)\n",
         dname, n, radius);
  for (int si = 0; si < 5; ++si) {
    char opts[256];
    snprintf(opts, sizeof opts, "-DNX=%d -DNY=%d -DNZ=%d -DR=%d -DS=%d -cl-mad-enable", n, n, n,
             radius, segments[si]);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &kSource, NULL, &err);
    CHECK(err);
    if (clBuildProgram(prog, 1, &dev, opts, NULL, NULL) != CL_SUCCESS) {
      char log[20000];
      clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
      fprintf(stderr, "build failed:\n%s\n", log);
      return 1;
    }
    cl_kernel kc = clCreateKernel(prog, "copy4", &err), kn = clCreateKernel(prog, "naive", &err),
              kz = clCreateKernel(prog, "zmarch", &err), k4 = clCreateKernel(prog, "zmarch4", &err);
    CHECK(err);
    cl_kernel all[4] = {kc, kn, kz, k4};
    for (int i = 0; i < 4; ++i) {
      clSetKernelArg(all[i], 0, sizeof in, &in);
      clSetKernelArg(all[i], 1, sizeof out, i == 1 ? &ref : &out);
    }
    if (si == 0) {
      size_t g1 = points / 4, l1 = 256;
      double copy = time_kernel(kc, 1, &g1, &l1);
      printf("copy kernel %.4f ms = %.1f GB/s\n", copy, 2.0 * bytes / copy * 1e-6);
      size_t g[3] = {n, n, n}, l[3] = {32, 4, 1};
      double naive = time_kernel(kn, 3, g, l);
      printf("naive (work-item a point, 32x4x1) %.4f ms = %.1f%% of copy\n", naive,
             100 * copy / naive);
      size_t l8[3] = {32, 8, 1};
      printf("naive 32x8x1 %.4f ms\n", time_kernel(kn, 3, g, l8));
      printf("copy-ms %.4f\n", copy);
    }
    size_t zero = 0;
    float* a = malloc(bytes);
    float* b = malloc(bytes);
    int groups[][2] = {{32, 4}, {32, 8}, {64, 4}, {16, 8}};
    for (int gi = 0; gi < 4; ++gi) {
      if ((n / 4) % groups[gi][0] != 0)
        continue;
      size_t gz[3] = {n, n, n / segments[si]}, lz[3] = {groups[gi][0], groups[gi][1], 1};
      CHECK(clEnqueueFillBuffer(q, out, &zero, 4, 0, bytes, 0, NULL, NULL));
      double tz = time_kernel(kz, 3, gz, lz);
      clEnqueueReadBuffer(q, out, CL_TRUE, 0, bytes, a, 0, NULL, NULL);
      size_t g4[3] = {n / 4, n, n / segments[si]};
      CHECK(clEnqueueFillBuffer(q, out, &zero, 4, 0, bytes, 0, NULL, NULL));
      double t4 = time_kernel(k4, 3, g4, lz);
      clEnqueueReadBuffer(q, out, CL_TRUE, 0, bytes, b, 0, NULL, NULL);
      printf("S=%d group %dx%d: zmarch %.4f ms, zmarch4 %.4f ms\n", segments[si], groups[gi][0],
             groups[gi][1], tz, t4);
    }
    // check both against the naive kernel on the interior both compute
    float* r = malloc(bytes);
    clEnqueueReadBuffer(q, ref, CL_TRUE, 0, bytes, r, 0, NULL, NULL);
    double worst_a = 0, worst_b = 0;
    for (int z = radius; z < n - radius; ++z)
      for (int y = radius; y < n - radius; ++y)
        for (int x = 4; x < n - 4; ++x) {
          size_t i = (size_t)z * n * n + (size_t)y * n + x;
          worst_a = fmax(worst_a, fabs(a[i] - r[i]));
          worst_b = fmax(worst_b, fabs(b[i] - r[i]));
        }
    printf("  max |difference| against naive: zmarch %.2e, zmarch4 %.2e\n", worst_a, worst_b);
    free(a);
    free(b);
    free(r);
    clReleaseProgram(prog);
  }
  return 0;
}
