// recursion.cu — recursive device functions: nvcc emits them as .func with call/ret and keeps
// their locals on the per-thread .local stack (%SP/%SPL, st.local/ld.local).
//
// Families: call.uni / call with .param argument and return passing, ret, recursion (fib, n-queens
// backtracking, quicksort on a local array passed by generic pointer), .local arrays and stack
// frames (__local_depot), cvta.local (generic pointers to local memory), divergent recursion depth.
// Specs: recursion.json
//
// Depth is bounded (fib n <= 15, queens n <= 7, quicksort of 12 elements) so the default 1 KiB
// per-thread stack of the CUDA driver is enough; ptxas warns that the stack size of a recursive
// kernel cannot be computed statically, which is expected.

__device__ __noinline__ unsigned fib(unsigned n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

// Counts placements of queens on rows row..n-1 given the columns taken so far (cols[0..row)).
__device__ __noinline__ int queens(int* cols, int row, int n) {
  if (row == n) return 1;
  int count = 0;
  for (int c = 0; c < n; ++c) {
    bool ok = true;
    for (int r = 0; r < row; ++r) {
      const int d = cols[r] - c;
      if (d == 0 || d == row - r || d == r - row) {
        ok = false;
        break;
      }
    }
    if (ok) {
      cols[row] = c;
      count += queens(cols, row + 1, n);
    }
  }
  return count;
}

// Lomuto quicksort; both halves recurse (nvcc may turn the second call into a loop).
__device__ __noinline__ void quicksort(int* a, int lo, int hi) {
  if (lo >= hi) return;
  const int pivot = a[hi];
  int i = lo;
  for (int j = lo; j < hi; ++j) {
    if (a[j] < pivot) {
      const int t = a[i];
      a[i] = a[j];
      a[j] = t;
      ++i;
    }
  }
  const int t = a[i];
  a[i] = a[hi];
  a[hi] = t;
  quicksort(a, lo, i - 1);
  quicksort(a, i + 1, hi);
}

// Sum of a binary tree stored implicitly in an array: node k has children 2k+1, 2k+2.
__device__ __noinline__ long long tree_sum(const int* nodes, int k, int size, int depth) {
  if (k >= size) return 0;
  return (long long)nodes[k] * depth + tree_sum(nodes, 2 * k + 1, size, depth + 1) +
         tree_sum(nodes, 2 * k + 2, size, depth + 1);
}

constexpr int kSortLen = 12;

extern "C" __global__ void recursion(const int* __restrict__ in, int n, unsigned* __restrict__ fibs,
                                     int* __restrict__ nqueens, int* __restrict__ sorted,
                                     long long* __restrict__ tsum) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int v = in[i];

  fibs[i] = fib((unsigned)v & 15u);

  int cols[8];
  nqueens[i] = queens(cols, 0, 4 + (v >> 4 & 3));

  int a[kSortLen];
  for (int k = 0; k < kSortLen; ++k) a[k] = in[(i + k * 37) % n] >> 20;  // signed, with repeats
  quicksort(a, 0, kSortLen - 1);
  for (int k = 0; k < kSortLen; ++k) sorted[i * kSortLen + k] = a[k];

  tsum[i] = tree_sum(a, 0, 1 + (v >> 8 & 7), 1);
}
