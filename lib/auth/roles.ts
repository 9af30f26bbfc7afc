/** The roles a user can have. Stored as strings (see prisma/schema.prisma). */
export const ROLES = ['developer', 'support', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
