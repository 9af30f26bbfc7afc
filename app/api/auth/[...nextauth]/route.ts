import { handlers } from '@/lib/auth/auth.ts';

export const { GET, POST } = handlers;
