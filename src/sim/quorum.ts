/** The tree's one majority. */
export function majorityOf(voters: number): number { return (voters >> 1) + 1; }
