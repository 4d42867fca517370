import { useQuery } from "@tanstack/react-query";
import { useTRPC, useTRPCClient } from "../../trpc.ts";
import type { Sample } from "./sample-provenance.ts";

/** Pages read for one chart, of PAGE_SIZE samples each. */
export const MAX_PAGES = 5;
export const PAGE_SIZE = 1000;
/** The most samples the user page reads and draws one by one. */
export const RAW_SAMPLES_LIMIT = MAX_PAGES * PAGE_SIZE;

export interface CappedSamples {
  samples: Sample[];
  /** True when more samples than MAX_PAGES pages matched: the chart shows the earliest ones. */
  truncated: boolean;
}

/** The user's samples of one type in a window and view, following next_cursor up to MAX_PAGES pages. */
export function useCappedSamples(input: { tenant_id: string; id: string; type: string | null; start: string; end: string; view: "all" | "merged" }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const { type, ...rest } = input;
  return useQuery({
    queryKey: [...trpc.adminMirrors.listTenantSamples.queryKey({ ...rest, type: type ?? "" }), { capped: MAX_PAGES }],
    enabled: type !== null,
    queryFn: async (): Promise<CappedSamples> => {
      const samples: Sample[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const answer = await client.adminMirrors.listTenantSamples.query({ ...rest, type: type ?? "", limit: PAGE_SIZE, cursor });
        samples.push(...answer.data);
        if (answer.next_cursor === null) return { samples, truncated: false };
        cursor = answer.next_cursor;
      }
      return { samples, truncated: true };
    },
  });
}
