export function graph(dir?: string): Map<string, string[]>;
export function cycles(edges: Map<string, string[]>): string[][];
