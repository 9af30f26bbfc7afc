/**
 * Every sentence the messaging-app account says, in Chinese (the WeChat account's audience, the default)
 * and English. Tool names, key display forms and numbers are never translated: they are what the
 * catalogue, the portal and the CLI show. Times are UTC, like the portal's.
 */
import { formatCount, formatRate } from '../portal/format.ts';
import { BIND_CODE_MINUTES } from './bindings.ts';
import type { ChannelName, Language } from './types.ts';

export interface Texts {
  welcome: string;
  help: string;
  notUnderstood: string;
  notBound: (bindPage: string | null) => string;
  bound: (account: string) => string;
  alreadyBound: (account: string) => string;
  boundElsewhere: string;
  noSuchCode: string;
  tooManyTries: (retryAt: string) => string;
  unbound: string;
  unbindNothing: string;
  accountCreated: string;
  newKey: (display: string, secret: string, mcpUrl: string | null) => string;
  noActiveKeys: string;
  tooManyKeys: (limit: number) => string;
  /** The daily creation cap (KEYS_CREATED_PER_DAY) reached: how many, and from when one more may be made. */
  tooManyKeysToday: (cap: number, nextAt: string) => string;
  secretInMessage: string;
  // "My key and usage"
  keysHeading: (active: number) => string;
  keyLine: (display: string, name: string, tier: string) => string;
  quota: (used: string, quota: string, left: string, resetsAt: string) => string;
  rate: (perSecond: number) => string;
  expires: (at: string | null) => string;
  /** The rate and the expiry on one line, with the language's own punctuation. */
  limits: (rate: string, expires: string) => string;
  todayHeading: string;
  toolLine: (tool: string, successes: number, failures: number) => string;
  noCallsToday: string;
  trend: (days: number, chart: string, total: string, peak: string) => string;
  lastCallsHeading: string;
  noCalls: string;
  more: (link: string) => string;
  otherKeys: (count: number) => string;
  // "Buy Pro"
  tiers: (free: string, pro: string) => string;
  tierLimits: (daily: string, perSecond: number) => string;
  howToRequest: (example: string) => string;
  requestExample: string;
  whichKey: (choices: string) => string;
  requestFiled: (display: string) => string;
  requestPending: (display: string, since: string) => string;
  alreadyPro: string;
  noUpgradeableKey: string;
  lastDecision: (display: string, status: 'approved' | 'declined', at: string, note: string | null) => string;
  decisionNotice: (display: string, status: 'approved' | 'declined', note: string | null, proDaily: string) => string;
  contactPage: (link: string) => string;
  contact: (contactPage: string | null, upgradePage: string | null) => string;
}

const zh = (w: DoorWords): Texts => ({
  welcome: '欢迎关注！这里可以领取和管理化学工具服务（MCP）的 API 密钥。',
  help: w.help,
  notUnderstood: '没有看懂这条消息。',
  notBound: (bindPage) =>
    `${w.self}尚未绑定账户。已有账户：在网站${bindPage ? ` ${bindPage} ` : '「账户」页'}获取绑定码，${w.bindHow}即可绑定。没有账户：发送${w.new}，立即创建账户和一个免费密钥。`,
  bound: (account) => `已绑定账户 ${account}。${w.keysHow}查看你的密钥。`,
  alreadyBound: (account) => `${w.self}已绑定账户 ${account}，无需再绑定。`,
  boundElsewhere: `${w.self}已绑定另一个账户。先发送${w.unbind}，再发送新的绑定码。`,
  noSuchCode: `绑定码无效或已过期（有效 ${BIND_CODE_MINUTES} 分钟，只能用一次）。请在网站「账户」页重新获取。`,
  tooManyTries: (retryAt) => `错误的绑定码太多，请于 ${retryAt} 之后再试。`,
  unbound: `已解除绑定。${w.self}不再能查看或管理该账户的密钥；密钥本身不受影响，仍然有效。`,
  unbindNothing: `${w.self}没有绑定任何账户。`,
  accountCreated: `已为${w.self}创建账户。`,
  newKey: (display, secret, mcpUrl) =>
    [
      `新密钥 ${display}（免费版）：`,
      secret,
      '⚠ 密钥只显示这一次，本服务不保存它。请立即妥善保存；丢失后只能重新签发。不要把它发给任何人或贴到公开的地方。',
      mcpUrl ? `MCP 地址：${mcpUrl}，请求头 Authorization: Bearer <密钥>` : null,
    ]
      .filter(Boolean)
      .join('\n'),
  noActiveKeys: `你的账户没有可用的密钥。发送${w.new}创建一个免费密钥。`,
  tooManyKeys: (limit) => `你已有 ${limit} 个可用密钥，达到上限。先在网站上停用不用的密钥，再创建新的。`,
  tooManyKeysToday: (cap, nextAt) =>
    `你的账户在 24 小时内已创建 ${cap} 个密钥（含重新签发），达到每天的上限。${nextAt} 起可以再创建。`,
  secretInMessage: '⚠ 这条消息里有 API 密钥。不要在聊天中发送密钥；如果它是真实的密钥，请在网站上停用或重新签发它。',
  keysHeading: (active) => `你的可用密钥（${active} 个）`,
  keyLine: (display, name, tier) =>
    `${display}「${name}」 ${tier === 'pro' ? '专业版' : tier === 'free' ? '免费版' : tier}`,
  quota: (used, quota, left, resetsAt) => `今日已用 ${used} / ${quota} 次，剩余 ${left} 次，${resetsAt} 重置`,
  rate: (perSecond) => `每秒最多 ${formatCount(perSecond)} 次`,
  expires: (at) => (at ? `到期 ${at}` : '永不过期'),
  limits: (rate, expires) => `${rate}；${expires}`,
  todayHeading: '今日调用（成功 / 失败）：',
  toolLine: (tool, successes, failures) => `${tool} ${successes} / ${failures}`,
  noCallsToday: '今日还没有调用。',
  trend: (days, chart, total, peak) => `近 ${days} 天：${chart} 共 ${total} 次，最高 ${peak}`,
  lastCallsHeading: '最近调用：',
  noCalls: '还没有调用记录。',
  more: (link) => `完整内容：${link}`,
  otherKeys: (count) => `另有 ${count} 个密钥未列出。`,
  tiers: (free, pro) => `免费版：${free}\n专业版：${pro}`,
  tierLimits: (daily, perSecond) => `每天 ${daily} 次，每秒最多 ${formatCount(perSecond)} 次`,
  howToRequest: (example) => `申请专业版，请回复：${w.pro} 每日预计调用次数 用途\n例如：${example}`,
  requestExample: `${w.pro} 5000 反应器设计中查询物性数据`,
  whichKey: (choices) => `你有多个免费密钥，请在「${w.pro}」后写上密钥末 4 位，例如：${w.pro} ${choices}`,
  requestFiled: (display) => `已提交 ${display} 的专业版申请。客服处理后会在这里通知你。`,
  requestPending: (display, since) =>
    `${display} 的专业版申请已于 ${since} 提交，正在等待客服处理；处理后会在这里通知你。`,
  alreadyPro: '你的可用密钥都已是专业版。',
  noUpgradeableKey: `你没有可以升级的免费密钥。发送${w.new}创建一个免费密钥后再申请。`,
  lastDecision: (display, status, at, note) =>
    `${display} 的专业版申请已于 ${at} ${status === 'approved' ? '批准' : '拒绝'}${note ? `：${note}` : '。'}`,
  decisionNotice: (display, status, note, proDaily) =>
    status === 'approved'
      ? `你的专业版申请已批准：${display} 现在是专业版，每天可调用 ${proDaily} 次。${note ? `客服留言：${note}` : ''}`
      : `你的专业版申请（${display}）未获批准。${note ? `客服说明：${note}` : ''}`,
  contactPage: (link) => `也可以通过联系页面购买：${link}`,
  contact: (contactPage, upgradePage) =>
    [
      '联系客服：',
      contactPage ? `联系页面 ${contactPage}` : null,
      upgradePage ? `专业版申请 ${upgradePage}` : null,
      `在这里发送「${w.pro}」即可申请升级，客服处理后会在这里通知你。`,
    ]
      .filter(Boolean)
      .join('\n'),
});

const en = (w: DoorWords): Texts => ({
  welcome: 'Welcome! Here you get and manage API keys for the chemistry tool service (MCP).',
  help: w.help,
  notUnderstood: 'That message was not understood.',
  notBound: (bindPage) =>
    `This chat is not bound to an account yet. Have an account? Get a bind code on ${bindPage ?? "the website's Account page"} and ${w.bindHow}. No account? Send ${w.new} to create an account and a free key right now.`,
  bound: (account) => `Bound to the account ${account}. ${w.keysHow} to see your keys.`,
  alreadyBound: (account) => `This chat is already bound to ${account}; nothing to do.`,
  boundElsewhere: `This chat is bound to another account. Send ${w.unbind} first, then the new code.`,
  noSuchCode: `That bind code is wrong or has expired (codes work for ${BIND_CODE_MINUTES} minutes, once). Get a new one on the website's Account page.`,
  tooManyTries: (retryAt) => `Too many wrong bind codes; try again after ${retryAt}.`,
  unbound: "Unbound. This chat can no longer see or manage the account's keys; the keys themselves still work.",
  unbindNothing: 'This chat is not bound to any account.',
  accountCreated: 'An account was created for this chat.',
  newKey: (display, secret, mcpUrl) =>
    [
      `New key ${display} (free tier):`,
      secret,
      '⚠ This is the only time the secret is shown; the service does not keep it. Store it now; if it is lost, the key must be reissued. Never share it or post it anywhere public.',
      mcpUrl ? `MCP endpoint: ${mcpUrl}, header Authorization: Bearer <secret>` : null,
    ]
      .filter(Boolean)
      .join('\n'),
  noActiveKeys: `Your account has no working key. Send ${w.new} to create a free one.`,
  tooManyKeys: (limit) =>
    `You already have ${limit} active keys, the most one account may hold. Disable one you no longer use on the website first.`,
  tooManyKeysToday: (cap, nextAt) =>
    `Your account has created ${cap} keys in the last 24 hours (reissues count too), the most it may create in a day. You can create the next from ${nextAt}.`,
  secretInMessage:
    '⚠ This message holds an API key secret. Never send secrets in a chat; if it is a real key, disable or reissue it on the website.',
  keysHeading: (active) => `Your active keys (${active})`,
  keyLine: (display, name, tier) => `${display} "${name}" ${tier}`,
  quota: (used, quota, left, resetsAt) => `Today ${used} of ${quota} calls used, ${left} left; resets ${resetsAt}`,
  rate: (perSecond) => `at most ${formatRate(perSecond)}`,
  expires: (at) => (at ? `expires ${at}` : 'never expires'),
  limits: (rate, expires) => `${rate}; ${expires}`,
  todayHeading: 'Today (successes / failures):',
  toolLine: (tool, successes, failures) => `${tool} ${successes} / ${failures}`,
  noCallsToday: 'No calls yet today.',
  trend: (days, chart, total, peak) => `Last ${days} days: ${chart} ${total} calls, peak ${peak}`,
  lastCallsHeading: 'Last calls:',
  noCalls: 'No calls yet.',
  more: (link) => `Everything: ${link}`,
  otherKeys: (count) => `${count} more keys not listed.`,
  tiers: (free, pro) => `Free: ${free}\nPro: ${pro}`,
  tierLimits: (daily, perSecond) => `${daily} calls a day, at most ${formatRate(perSecond)}`,
  howToRequest: (example) =>
    `To ask for Pro, reply: ${w.pro} <expected calls per day> <what for>\nFor example: ${example}`,
  requestExample: `${w.pro} 5000 property lookups for reactor design`,
  whichKey: (choices) =>
    `You have several free keys: put the key's last 4 characters after "${w.pro}", e.g. ${w.pro} ${choices}`,
  requestFiled: (display) => `Pro requested for ${display}. You will be told here when support decides.`,
  requestPending: (display, since) =>
    `Pro for ${display} was requested on ${since} and waits for support; you will be told here when they decide.`,
  alreadyPro: 'All your active keys are on Pro already.',
  noUpgradeableKey: `You have no free key to upgrade. Send ${w.new} to create one, then ask again.`,
  lastDecision: (display, status, at, note) =>
    `Your Pro request for ${display} was ${status} on ${at}${note ? `: ${note}` : '.'}`,
  decisionNotice: (display, status, note, proDaily) =>
    status === 'approved'
      ? `Your Pro request was approved: ${display} is on Pro now, ${proDaily} calls a day.${note ? ` Support says: ${note}` : ''}`
      : `Your Pro request for ${display} was declined.${note ? ` Support says: ${note}` : ''}`,
  contactPage: (link) => `You can also buy Pro through the contact page: ${link}`,
  contact: (contactPage, upgradePage) =>
    [
      'Customer service:',
      contactPage ? `contact page ${contactPage}` : null,
      upgradePage ? `Pro requests ${upgradePage}` : null,
      `Send "${w.pro}" here to ask for an upgrade; you will be told here when support decides.`,
    ]
      .filter(Boolean)
      .join('\n'),
});

/** The words that differ between doors: WeChat has a menu and plain words, Telegram has commands. */
type DoorWords = Record<'self' | 'new' | 'unbind' | 'pro' | 'bindHow' | 'keysHow' | 'help', string>;

const DOOR_WORDS: Record<Language, Record<ChannelName, DoorWords>> = {
  zh: {
    wechat: {
      self: '此微信',
      new: '「新建」',
      unbind: '「解绑」',
      pro: '专业版',
      bindHow: '发送到这里',
      keysHow: '点菜单「密钥与用量」',
      help: '菜单「密钥与用量」查看密钥和今日用量；「购买专业版」申请升级；发送网站「账户」页的绑定码以绑定账户；发送「新建」创建免费密钥；发送「解绑」解除绑定。',
    },
    telegram: {
      self: '此 Telegram 账号',
      new: ' /newkey ',
      unbind: ' /unbind ',
      pro: '/pro',
      bindHow: '以「/bind 绑定码」发送到这里',
      keysHow: '发送 /key ',
      help: '/key 查看密钥；/usage 查看今日调用；/pro 申请专业版；/bind 绑定码 绑定网站账户；/newkey 创建免费密钥；/unbind 解除绑定；/contact 联系客服。',
    },
  },
  en: {
    wechat: {
      self: 'This chat',
      new: '"new key"',
      unbind: '"unbind"',
      pro: 'pro',
      bindHow: 'send it here',
      keysHow: 'Use "My key & usage"',
      help: 'Menu "My key & usage" shows your keys and today\'s calls; "Buy Pro" asks for an upgrade. Send the bind code from the website\'s Account page to bind your account; send "new key" for a free key; send "unbind" to unbind.',
    },
    telegram: {
      self: 'This chat',
      new: '/newkey',
      unbind: '/unbind',
      pro: '/pro',
      bindHow: 'send /bind CODE here',
      keysHow: 'Send /key',
      help: "/key shows your keys; /usage today's calls; /pro asks for Pro; /bind CODE binds your website account; /newkey makes a free key; /unbind unbinds; /contact reaches customer service.",
    },
  },
};

/** The texts of one language, with the door's own words (its name for itself, its commands) written in. */
export function textsFor(language: Language, channel: ChannelName): Texts {
  return (language === 'en' ? en : zh)(DOOR_WORDS[language][channel]);
}
