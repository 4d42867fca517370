import { Container, Stack } from "@mantine/core";
import type { Bundle } from "fhir/r4.js";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { summarizeBundle, type BundleSummary } from "./bundle/bundle-summary.ts";
import { OpeningProgress } from "./components/opening-progress.tsx";
import { PasscodeForm } from "./components/passcode-form.tsx";
import { ShareHeader } from "./components/share-header.tsx";
import { ShareSummary } from "./components/share-summary.tsx";
import { StatusMessage, type StatusKind } from "./components/status-message.tsx";
import { openShare, type OpeningStage } from "./link/open-share.ts";
import { linkExpired, parseShlink } from "./link/shlink.ts";

type Step =
  | { step: "passcode"; remainingAttempts: number | null; wrong: boolean; busy: boolean }
  | { step: "loading"; stage: OpeningStage | null }
  | { step: "status"; status: StatusKind }
  | { step: "opened"; json: string; bundle: Bundle; summary: BundleSummary };

/** Lets the browser paint the last progress state before a long synchronous step. */
const nextFrame = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The share viewer: reads the link from the URL fragment (never sent to the server), asks for
 * the passcode when the link needs one, opens, decrypts and inflates the shared file while
 * showing how far it got, and shows a summary of it.
 */
export function App() {
  const parsed = useMemo(() => parseShlink(window.location.hash), []);
  const link = parsed.ok ? parsed.link : null;
  const expiredAt = link?.exp != null ? link.exp * 1000 : null;
  const [step, setStep] = useState<Step>(() => {
    if (!parsed.ok) return { step: "status", status: { kind: "invalid", message: parsed.reason } };
    if (linkExpired(parsed.link)) return { step: "status", status: { kind: "gone", why: { status: "expired" }, expiredAt } };
    return parsed.link.passcode ? { step: "passcode", remainingAttempts: null, wrong: false, busy: false } : { step: "loading", stage: null };
  });
  const started = useRef(false);

  const open = useCallback(
    async (passcode?: string) => {
      if (!link) return;
      const outcome = await openShare(link, passcode, (stage) => setStep({ step: "loading", stage }));
      switch (outcome.kind) {
        case "passcode":
          if (outcome.remainingAttempts === 0) setStep({ step: "status", status: { kind: "gone", why: { status: "revoked", reason: "passcode_attempts" }, expiredAt } });
          else setStep({ step: "passcode", remainingAttempts: outcome.remainingAttempts, wrong: passcode !== undefined, busy: false });
          return;
        case "gone":
          setStep({ step: "status", status: { kind: "gone", why: outcome.why, expiredAt } });
          return;
        case "failed":
          setStep({ step: "status", status: { kind: "failed", message: outcome.message } });
          return;
        case "opened":
          await nextFrame();
          try {
            setStep({ step: "opened", json: outcome.json, bundle: outcome.bundle, summary: summarizeBundle(outcome.bundle) });
          } catch {
            setStep({ step: "status", status: { kind: "failed", message: "The shared file could not be summarized. Download it to read it elsewhere." } });
          }
      }
    },
    [link, expiredAt],
  );

  // Another link pasted into the address bar changes only the fragment: start over with it.
  useEffect(() => {
    const restart = () => window.location.reload();
    window.addEventListener("hashchange", restart);
    return () => window.removeEventListener("hashchange", restart);
  }, []);

  useEffect(() => {
    if (step.step !== "loading" || step.stage !== null || started.current) return;
    started.current = true;
    void open();
  }, [step, open]);

  let body;
  switch (step.step) {
    case "passcode":
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
      break;
    case "loading":
      body = <OpeningProgress stage={step.stage} />;
      break;
    case "status":
      body = <StatusMessage status={step.status} onRetry={step.status.kind === "failed" ? () => window.location.reload() : undefined} />;
      break;
    case "opened":
      body = <ShareSummary json={step.json} summary={step.summary} generatedAt={step.bundle.timestamp ?? null} />;
  }

  return (
    <Container size="lg" py="lg" component="main">
      <Stack gap="lg">
        <ShareHeader link={link} showExpiry={step.step !== "status"} />
        {body}
      </Stack>
    </Container>
  );
}
