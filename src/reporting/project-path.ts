// results.json names files the way a team shares them: relative to the project (Vitest's root), like the
// artifacts are relative to their run folder, never as this machine's absolute path. A file outside the project
// gets a `../` path; separators are always `/`, whatever the platform.
import { isAbsolute, relative, resolve, sep } from 'node:path'

export function projectRelativePath(projectRoot: string, path: string): string {
  const relativePath = relative(resolve(projectRoot), resolve(projectRoot, path))
  // On Windows another drive has no relative path; keep it as given rather than invent one.
  if (isAbsolute(relativePath)) return path
  return relativePath === '' ? '.' : relativePath.split(sep).join('/')
}
