// The observation moved to src/observability (the observe stage owns it); this path stays for code written
// against it meanwhile.
export * from '../observability/observation.ts'
