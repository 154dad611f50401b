/** Risk-level colours (spec §9): the breakdown and the risk pie use the same ones. */
export const RISK_COLORS = { low: '#52c41a', medium: '#faad14', high: '#fa541c', critical: '#a8071a' } as const;
