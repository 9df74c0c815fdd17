/** Query keys of the declare (报税检查) feature; all start with 'declare'. */
export const DECLARE_KEYS = {
  all: ['declare'] as const,
  results: (params: unknown) => ['declare', 'results', params] as const,
  failed: (params: unknown) => ['declare', 'failed', params] as const,
  counts: (batchId: number | null) => ['declare', 'counts', batchId] as const,
  summaries: (params: unknown) => ['declare', 'summaries', params] as const,
  qyshCount: ['declare', 'qysh-count'] as const,
};
