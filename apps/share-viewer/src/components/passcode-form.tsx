import { Alert, Button, Paper, PasswordInput, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";

/** Asks for the passcode the person who shared the data gave separately. */
export function PasscodeForm({
  busy,
  wrong,
  remainingAttempts,
  onSubmit,
}: {
  busy: boolean;
  wrong: boolean;
  remainingAttempts: number | null;
  onSubmit: (passcode: string) => void;
}) {
  const [passcode, setPasscode] = useState("");
  const attempts =
    remainingAttempts === null ? "" : ` ${remainingAttempts} ${remainingAttempts === 1 ? "attempt" : "attempts"} left before the link is revoked.`;
  return (
    <Paper withBorder p="lg" maw={460} component="section" aria-labelledby="passcode-title">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (passcode !== "") onSubmit(passcode);
        }}
      >
        <Stack gap="md">
          <Title order={2} size="h3" id="passcode-title">
            Enter the passcode
          </Title>
          <Text size="sm">This share is protected by a passcode. The person who shared it gives it to you separately.</Text>
          {wrong && (
            <Alert role="alert" color="red" variant="light" title="Wrong passcode">
              The passcode is not right.{attempts}
            </Alert>
          )}
          <PasswordInput
            label="Passcode"
            required
            autoComplete="off"
            value={passcode}
            onChange={(event) => setPasscode(event.currentTarget.value)}
            data-autofocus
          />
          <Button type="submit" loading={busy} disabled={passcode === ""}>
            Open share
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
