/**
 * The account's custom menu, as POST /cgi-bin/menu/create takes it: three click buttons whose keys come
 * back in CLICK events (lib/channels/wechat/inbound.ts). The platform allows at most three top-level
 * buttons with names of at most 16 bytes and keys of at most 128 bytes.
 */
import type { Language } from '../types.ts';

export const MENU_KEYS = { keyUsage: 'MY_KEY_USAGE', upgrade: 'UPGRADE_PRO', contact: 'CONTACT' } as const;
export type MenuKey = (typeof MENU_KEYS)[keyof typeof MENU_KEYS];

export const MENU_LIMITS = { buttons: 3, nameBytes: 16, keyBytes: 128 } as const;

const NAMES: Record<Language, Record<MenuKey, string>> = {
  zh: { MY_KEY_USAGE: '密钥与用量', UPGRADE_PRO: '购买专业版', CONTACT: '联系客服' },
  en: { MY_KEY_USAGE: 'My key & usage', UPGRADE_PRO: 'Buy Pro', CONTACT: 'Contact' },
};

export interface WechatMenu {
  button: { type: 'click'; name: string; key: MenuKey }[];
}

export function wechatMenu(language: Language): WechatMenu {
  return {
    button: Object.values(MENU_KEYS).map((key) => ({ type: 'click', name: NAMES[language][key], key })),
  };
}
