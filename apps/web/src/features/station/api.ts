/** Query keys of the station feature; all start with 'station'. */
export const STATION_KEYS = {
  all: ['station'] as const,
  list: (params: unknown) => ['station', 'list', params] as const,
  members: (stationId: number) => ['station', 'members', stationId] as const,
  candidates: ['station', 'candidates'] as const,
};

export const PAGE_SIZES = [20, 50, 100, 500];
