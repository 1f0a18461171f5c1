// A module one fixture file mocks and the other imports as it is (../fresh-modules.test.ts).
export function greeting(): string {
  return 'real'
}
