import { Container, Loader, Stack, Text } from "@mantine/core";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { summarizeBundle } from "./bundle/bundle-summary.ts";
import { PasscodeForm } from "./components/passcode-form.tsx";
import { ShareHeader } from "./components/share-header.tsx";
import { ShareSummary } from "./components/share-summary.tsx";
import { StatusMessage } from "./components/status-message.tsx";
import { openShare, type ShareOutcome } from "./link/open-share.ts";
import { linkExpired, parseShlink } from "./link/shlink.ts";

type Step =
  | { step: "passcode"; remainingAttempts: number | null; wrong: boolean; busy: boolean }
  | { step: "loading" }
  | { step: "done"; outcome: Exclude<ShareOutcome, { kind: "passcode" }> };

/**
 * The share viewer: reads the link from the URL fragment (never sent to the server), asks for
 * the passcode when the link needs one, opens and decrypts the shared file, and shows it.
 */
export function App() {
  const parsed = useMemo(() => parseShlink(window.location.hash), []);
  const link = parsed.ok ? parsed.link : null;
  const expired = link !== null && linkExpired(link);
  const [step, setStep] = useState<Step>(() =>
    link?.passcode ? { step: "passcode", remainingAttempts: null, wrong: false, busy: false } : { step: "loading" },
  );
  const started = useRef(false);

  const open = useCallback(
    async (passcode?: string) => {
      if (!link) return;
      const outcome = await openShare(link, passcode);
      if (outcome.kind === "passcode") {
        if (outcome.remainingAttempts === 0) setStep({ step: "done", outcome: { kind: "gone" } });
        else setStep({ step: "passcode", remainingAttempts: outcome.remainingAttempts, wrong: passcode !== undefined, busy: false });
      } else {
        setStep({ step: "done", outcome });
      }
    },
    [link],
  );

  // Another link pasted into the address bar changes only the fragment: start over with it.
  useEffect(() => {
    const restart = () => window.location.reload();
    window.addEventListener("hashchange", restart);
    return () => window.removeEventListener("hashchange", restart);
  }, []);

  useEffect(() => {
    if (!link || expired || link.passcode || started.current) return;
    started.current = true;
    void open();
  }, [link, expired, open]);

  const opened = step.step === "done" && step.outcome.kind === "opened" ? step.outcome : null;
  const summary = useMemo(() => (opened ? summarizeBundle(opened.bundle) : null), [opened]);

  let body;
  if (!parsed.ok) body = <StatusMessage kind="invalid" message={parsed.reason} />;
  else if (expired) body = <StatusMessage kind="gone" />;
  else if (step.step === "passcode") {
    body = (
      <PasscodeForm
        busy={step.busy}
        wrong={step.wrong}
        remainingAttempts={step.remainingAttempts}
        onSubmit={(passcode) => {
          setStep({ ...step, busy: true });
          void open(passcode);
        }}
      />
    );
  } else if (step.step === "loading") {
    body = (
      <Stack align="center" gap="xs" role="status" py="xl">
        <Loader aria-hidden />
        <Text>Opening the shared data…</Text>
      </Stack>
    );
  } else if (step.outcome.kind === "gone") body = <StatusMessage kind="gone" />;
  else if (step.outcome.kind === "failed") body = <StatusMessage kind="failed" message={step.outcome.message} onRetry={() => window.location.reload()} />;
  else if (opened && summary) body = <ShareSummary json={opened.json} summary={summary} generatedAt={opened.bundle.timestamp ?? null} />;

  return (
    <Container size="lg" py="lg" component="main">
      <Stack gap="lg">
        <ShareHeader link={link} />
        {body}
      </Stack>
    </Container>
  );
}
