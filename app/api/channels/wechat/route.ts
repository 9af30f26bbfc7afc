/** The WeChat Official Account's server URL; the logic is in lib/channels/wechat/. */

import { wechatGet, wechatPost } from '@/lib/channels/wechat/endpoint.ts';
import { getDb } from '@/lib/db/client.ts';

export const dynamic = 'force-dynamic';

export function GET(request: Request): Promise<Response> {
  return wechatGet(request, getDb());
}

export function POST(request: Request): Promise<Response> {
  return wechatPost(request, getDb());
}
