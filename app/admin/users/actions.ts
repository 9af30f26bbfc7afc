'use server';
import { refresh } from 'next/cache';
import { z } from 'zod';
import { getDb } from '@/lib/db/client.ts';
import { portalAction } from '@/lib/portal/form-action.ts';
import { trimmedText } from '@/lib/portal/form-input.ts';
import { changeUserRole } from '@/lib/portal/users.ts';

export const changeRoleAction = portalAction(
  { input: z.object({ userId: trimmedText, role: trimmedText }), access: 'admin', notDone: 'the role was not changed' },
  async ({ userId, role }, { viewer, actor }) => {
    const user = await changeUserRole(getDb(), viewer, userId, role, actor);
    refresh();
    return { message: `${user.email} is now ${user.role}.` };
  },
);
