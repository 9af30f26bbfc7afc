/** `cli channel wechat menu`: the Official Account's menu as JSON, or pushed with the app's credentials. */
import { pushMenu } from '../channels/wechat/api.ts';
import { wechatMenu } from '../channels/wechat/menu.ts';
import { wechatApiSettings } from '../channels/wechat/settings.ts';
import { config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { parse, UsageError } from './args.ts';

export async function channelWechat(_db: Db, args: string[]) {
  const { values, positionals } = parse(args, { push: { type: 'boolean' } }, 1, 'channel wechat subcommand (menu)');
  if (positionals[0] !== 'menu') throw new UsageError(`Unknown subcommand "channel wechat ${positionals[0]}".`);
  const wechat = config().wechat;
  if (!wechat)
    throw new UsageError('channel wechat menu reads the WeChat settings: set WECHAT_TOKEN (and WECHAT_LANGUAGE).');
  const menu = wechatMenu(wechat.language);
  if (!values.push) return console.log(JSON.stringify(menu, null, 2));
  const settings = wechatApiSettings(wechat);
  if (!settings) throw new UsageError('channel wechat menu --push needs WECHAT_APP_ID and WECHAT_APP_SECRET.');
  console.log(JSON.stringify(await pushMenu(menu, settings)));
}
