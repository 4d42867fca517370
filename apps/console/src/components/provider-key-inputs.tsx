import { PasswordInput, TextInput } from "@mantine/core";
import { useState, type ChangeEvent } from "react";

/** A key a provider takes, as the admin procedures describe it (never its value). */
export interface ProviderKey {
  name: string;
  required: boolean;
  secret: boolean;
  set: boolean;
  /** The environment variable that sets it (instance keys only). */
  env?: string;
}

/** The values typed for a provider's keys, and the required ones found empty on the last check. */
export function useKeyValues() {
  const [values, setValues] = useState<Record<string, string>>({});
  const [missing, setMissing] = useState<string[]>([]);
  return {
    values,
    missing,
    set: (name: string, value: string) => setValues((old) => ({ ...old, [name]: value })),
    clear: () => setValues({}),
    /** Marks the required keys left empty; true when there is none. */
    check(keys: ProviderKey[]): boolean {
      const empty = keys.filter((key) => key.required && !values[key.name]?.trim()).map((key) => key.name);
      setMissing(empty);
      return empty.length === 0;
    },
    /** The keys to save: trimmed, the empty ones left out. */
    toSave(): Record<string, string> {
      return Object.fromEntries(Object.entries(values).filter(([, value]) => value.trim() !== "").map(([name, value]) => [name, value.trim()]));
    },
  };
}

/** One input per key (a password input for a secret one), never prefilled: saving replaces every key. */
export function ProviderKeyInputs({ keys, form, disabled }: { keys: ProviderKey[]; form: ReturnType<typeof useKeyValues>; disabled: boolean }) {
  return (
    <>
      {keys.map((key) => {
        const props = {
          label: key.name,
          description: `${key.required ? "Required" : "Optional"}${key.env ? `; environment variable ${key.env}` : ""}${key.set ? "; set now" : ""}`,
          withAsterisk: key.required,
          value: form.values[key.name] ?? "",
          error: form.missing.includes(key.name) ? `${key.name} is required` : undefined,
          autoComplete: "off",
          disabled,
          onChange: (event: ChangeEvent<HTMLInputElement>) => form.set(key.name, event.currentTarget.value),
        };
        return key.secret ? <PasswordInput key={key.name} {...props} /> : <TextInput key={key.name} {...props} />;
      })}
    </>
  );
}
