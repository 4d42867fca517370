import { Alert, Anchor, Button, Center, Code, Paper, PasswordInput, Stack, Text, Title } from "@mantine/core";
import { useState, type FormEvent } from "react";
import { useAdminSession } from "../session/admin-session.tsx";

/** Asks for an instance admin key; it is kept in memory only, so a reload asks again. */
export function SignInPage() {
  const { signIn } = useAdminSession();
  const [key, setKey] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(await signIn(key));
    setBusy(false);
  }

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder p="xl" w={440} shadow="sm">
        <form onSubmit={submit} aria-labelledby="sign-in-title">
          <Stack>
            <Title order={1} size="h2" id="sign-in-title">
              svc console
            </Title>
            <Text c="dimmed" size="sm">
              Sign in with an instance admin key (<Code>svc_ak_…</Code>). Create one with <Code>svc admin key create</Code>, or
              through the first-run setup at <Anchor href="/">the instance's root page</Anchor>.
            </Text>
            {error && (
              <Alert color="red" role="alert" title="Not signed in">
                {error}
              </Alert>
            )}
            <PasswordInput label="Admin key" value={key} onChange={(e) => setKey(e.currentTarget.value)} required autoComplete="off" />
            <Button type="submit" loading={busy}>
              Sign in
            </Button>
            <Text c="dimmed" size="xs">
              The key stays in this tab's memory: reloading the page signs you out.
            </Text>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
