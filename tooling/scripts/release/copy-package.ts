import { cpSync, existsSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const readManifest = (dir: string) => JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as Manifest;

/** The folder of package `name` as Node would find it from `dir`, symlinks resolved (pnpm's layout), or undefined. */
function installedDir(name: string, dir: string): string | undefined {
  for (let at = dir; ; at = path.dirname(at)) {
    const candidate = path.join(at, "node_modules", name);
    if (existsSync(path.join(candidate, "package.json"))) return realpathSync(candidate);
    if (path.dirname(at) === at) return undefined;
  }
}

/**
 * Copies the installed package `name` (as `from` resolves it) and its dependencies, with the
 * versions the lockfile installed, into `nodeModules` as npm would lay them out: flat, and
 * nested under the dependent where two versions of one package are needed. Optional
 * dependencies come along when installed (pnpm installs only this platform's binaries).
 * Returns the copied package's version.
 */
export function copyPackageClosure(from: string, name: string, nodeModules: string): string {
  const source = installedDir(name, from);
  if (!source) throw new Error(`${name} is not installed for ${from}`);
  const copied = new Map<string, string>(); // target folder -> version
  copy(source, path.join(nodeModules, name));
  return readManifest(source).version;

  function copy(sourceDir: string, targetDir: string): void {
    const manifest = readManifest(sourceDir);
    cpSync(sourceDir, targetDir, { recursive: true, dereference: true, filter: (file) => !file.startsWith(path.join(sourceDir, "node_modules")) });
    copied.set(targetDir, manifest.version);
    const optional = new Set(Object.keys(manifest.optionalDependencies ?? {}));
    for (const dependency of new Set([...Object.keys(manifest.dependencies ?? {}), ...optional])) {
      const dependencySource = installedDir(dependency, sourceDir);
      if (!dependencySource) {
        if (optional.has(dependency)) continue; // another platform's binaries
        throw new Error(`${dependency}, a dependency of ${manifest.name}, is not installed`);
      }
      const version = readManifest(dependencySource).version;
      const flat = path.join(nodeModules, dependency);
      const nested = path.join(targetDir, "node_modules", dependency);
      if (copied.get(flat) === version || copied.get(nested) === version) continue;
      copy(dependencySource, copied.has(flat) ? nested : flat);
    }
  }
}
