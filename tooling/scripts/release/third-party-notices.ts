import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

interface BundledPackage {
  name: string;
  version: string;
  license: string;
  licenseText: string | undefined;
}

const LICENSE_FILE = /^(licen[cs]e|copying|notice)(\.(md|txt))?$/i;

/** The folder of the package under node_modules that holds `file`, or undefined for svc's own files. */
function packageDirOf(file: string): string | undefined {
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf("node_modules");
  if (at === -1) return undefined;
  const length = parts[at + 1]?.startsWith("@") ? at + 3 : at + 2;
  return parts.slice(0, length).join(path.sep);
}

function describe(dir: string): BundledPackage {
  const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { name: string; version: string; license?: unknown };
  const licenseFiles = readdirSync(dir).filter((name) => LICENSE_FILE.test(name)).sort();
  return {
    name: manifest.name,
    version: manifest.version,
    license: typeof manifest.license === "string" ? manifest.license : "see the package",
    licenseText: licenseFiles.map((name) => readFileSync(path.join(dir, name), "utf8").trim()).join("\n\n") || undefined,
  };
}

/**
 * THIRD-PARTY-NOTICES.md of the release: each third-party package whose code the bundle holds
 * (from the bundler's list of input files), with its license and the license text it ships.
 */
export function thirdPartyNotices(inputFiles: string[]): string {
  const dirs = new Set(inputFiles.map(packageDirOf).filter((dir): dir is string => dir !== undefined && existsSync(path.join(dir, "package.json"))));
  const packages = [...dirs].map(describe).sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
  const sections = packages.map(
    (pkg) => `## ${pkg.name} ${pkg.version}\n\nLicense: ${pkg.license}\n\n${pkg.licenseText ? `\`\`\`\n${pkg.licenseText}\n\`\`\`` : "(the package ships no license file)"}\n`,
  );
  return `# Third-party notices\n\nThe bundle in lib/ holds code of these ${packages.length} packages.\n\n${sections.join("\n")}`;
}
