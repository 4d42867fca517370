import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from "react";
import { createConsoleClient, TRPCProvider, type ConsoleClient } from "../trpc.ts";

interface AdminSession {
  signedIn: boolean;
  /** Checks the key against the server; resolves to an error message, or null when signed in. */
  signIn: (adminKey: string) => Promise<string | null>;
  signOut: () => void;
}

const SessionContext = createContext<AdminSession | null>(null);

export function useAdminSession(): AdminSession {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useAdminSession outside AdminSessionProvider");
  return session;
}

function newQueryClient() {
  return new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
}

/**
 * Holds the instance admin key in memory only (a ref), and the typed client and query cache
 * that use it. Signing out drops the key and every cached answer.
 */
export function AdminSessionProvider({ children }: { children: ReactNode }) {
  const keyRef = useRef<string | null>(null);
  const [signedIn, setSignedIn] = useState(false);
  const [queryClient, setQueryClient] = useState(newQueryClient);
  const client = useMemo<ConsoleClient>(() => createConsoleClient(() => keyRef.current), []);

  const signIn = useCallback(
    async (adminKey: string) => {
      keyRef.current = adminKey.trim();
      try {
        await client.adminProviders.listInstanceProviders.query({});
        setSignedIn(true);
        return null;
      } catch {
        keyRef.current = null;
        return "That is not a valid instance admin key.";
      }
    },
    [client],
  );

  const signOut = useCallback(() => {
    keyRef.current = null;
    setSignedIn(false);
    queryClient.clear();
    setQueryClient(newQueryClient());
  }, [queryClient]);

  const session = useMemo(() => ({ signedIn, signIn, signOut }), [signedIn, signIn, signOut]);
  return (
    <SessionContext.Provider value={session}>
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={client} queryClient={queryClient}>
          {children}
        </TRPCProvider>
      </QueryClientProvider>
    </SessionContext.Provider>
  );
}
