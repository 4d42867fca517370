// The import rules of packages/core/src, checked by test/domain-rules.test.ts with dependency-cruiser
// (docs/architecture.md describes each domain). A change of direction is a change of this table and
// of that page, made on purpose.

export const DOMAINS = [
  "platform",
  "identity",
  "events",
  "records",
  "fhir",
  "sharing",
  "ingest",
  "connections",
  "webhooks",
  "erasure",
  "admin",
] as const;

export type Domain = (typeof DOMAINS)[number];

/** The domains each domain may import (through their index.ts). Together they form no cycle. */
export const MAY_IMPORT: Record<Domain, readonly Domain[]> = {
  platform: [],
  identity: ["platform"],
  events: ["platform"],
  records: ["platform", "identity", "events"],
  fhir: ["platform", "identity", "records"],
  sharing: ["platform", "identity", "events", "records", "fhir"],
  ingest: ["platform", "identity", "events", "records", "sharing"],
  connections: ["platform", "identity", "events", "records", "ingest"],
  webhooks: ["platform", "identity", "events"],
  erasure: ["platform", "identity", "events", "records", "fhir", "sharing", "ingest", "connections", "webhooks"],
  admin: ["platform", "identity", "events", "records", "sharing", "ingest", "connections", "webhooks", "erasure"],
};

interface Rule {
  name: string;
  comment: string;
  severity: "error";
  from: Record<string, unknown>;
  to: Record<string, unknown>;
}

const INDEX = "^src/[^/]+/index\\.ts$";

/** dependency-cruiser's forbidden rules for the table above; paths are relative to packages/core. */
export function domainRules(): Rule[] {
  const order: Rule[] = DOMAINS.flatMap((domain) => {
    const forbidden = DOMAINS.filter((other) => other !== domain && !MAY_IMPORT[domain].includes(other));
    if (forbidden.length === 0) return [];
    return [
      {
        name: `${domain}-imports-only-${MAY_IMPORT[domain].join("-") || "itself"}`,
        comment: `${domain} may import ${MAY_IMPORT[domain].join(", ") || "no other domain"} (domain-rules.ts, docs/architecture.md)`,
        severity: "error",
        from: { path: `^src/${domain}/` },
        to: { path: `^src/(${forbidden.join("|")})/` },
      },
    ];
  });
  return [
    ...order,
    {
      name: "through-the-index",
      comment: "a domain imports another domain only through that domain's index.ts",
      severity: "error",
      from: { path: "^src/([^/]+)/" },
      to: { path: "^src/[^/]+/", pathNot: ["^src/$1/", INDEX] },
    },
    {
      name: "not-through-own-index",
      comment: "inside a domain, files import their siblings directly, never the domain's own index.ts",
      severity: "error",
      from: { path: "^src/([^/]+)/", pathNot: INDEX },
      to: { path: "^src/$1/index\\.ts$" },
    },
    {
      name: "not-the-package-index",
      comment: "src/index.ts is the package's face to the apps; no domain imports it",
      severity: "error",
      from: { path: "^src/[^/]+/" },
      to: { path: "^src/index\\.ts$" },
    },
    {
      name: "deps-as-types-only",
      comment: "src/deps.ts (CoreDeps) names types of several domains: import it as a type only",
      severity: "error",
      from: { path: "^src/[^/]+/" },
      to: { path: "^src/deps\\.ts$", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "deps-names-only-types-of-indexes",
      comment: "src/deps.ts imports types only, and only from the domains' index.ts",
      severity: "error",
      from: { path: "^src/deps\\.ts$" },
      to: { path: "^src/", pathNot: INDEX },
    },
    {
      name: "no-runtime-cycle",
      comment: "no cycle of imports that stay at run time (type-only imports are erased)",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true, dependencyTypesNot: ["type-only"], viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "prisma-only-in-repositories",
      comment: "only *-repository.ts files and platform/db touch Prisma (@svc/db) at run time",
      severity: "error",
      from: { path: "^src/", pathNot: ["-repository\\.ts$", "^src/platform/db/"] },
      to: { path: "^\\.\\./db/", dependencyTypesNot: ["type-only"] },
    },
  ];
}
