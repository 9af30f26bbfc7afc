/**
 * `cli channel telegram webhook --url https://host/api/channels/telegram [--push]`: prints what Telegram
 * needs to deliver updates to this server (setWebhook's parameters, the secret masked) and the command
 * menu (setMyCommands); --push sends both through the Bot API at TELEGRAM_API_ROOT.
 */
import { parseArgs } from 'node:util';
import { Api } from 'grammy';
import { clientOptions } from '../channels/telegram/api.ts';
import { commandMenu } from '../channels/telegram/commands.ts';
import { TELEGRAM_WEBHOOK_PATH } from '../channels/telegram/webhook.ts';
import { config } from '../config.ts';

/** The bot answers messages only; leaving the rest out spares the server updates it would ignore. */
const ALLOWED_UPDATES = ['message'] as const;

function webhookUrl(raw: string | undefined, usage: (message: string) => Error): string {
  const example = `https://chem.example.com${TELEGRAM_WEBHOOK_PATH}`;
  if (!raw) throw usage(`channel telegram webhook needs --url, the address Telegram posts updates to (${example}).`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw usage(`--url must be an absolute https:// URL such as ${example}, got "${raw}".`);
  }
  // Telegram delivers to HTTPS only (setWebhook refuses anything else).
  if (url.protocol !== 'https:') throw usage(`--url must be https:// (Telegram delivers to HTTPS only), got "${raw}".`);
  if (url.pathname !== TELEGRAM_WEBHOOK_PATH)
    console.error(
      `Note: this server answers Telegram at ${TELEGRAM_WEBHOOK_PATH}; --url has the path ${url.pathname}.`,
    );
  return url.href;
}

const OPTIONS = { url: { type: 'string' }, push: { type: 'boolean' } } as const;

function readArgs(args: string[], usage: (message: string) => Error) {
  try {
    return parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw usage((error as Error).message);
  }
}

/** `usage` makes the error run.ts answers with the usage text and exit code 2. */
export async function channelTelegram(args: string[], usage: (message: string) => Error): Promise<void> {
  const { values, positionals } = readArgs(args, usage);
  if (positionals.length !== 1 || positionals[0] !== 'webhook')
    throw usage('channel telegram has one action: webhook --url URL [--push].');
  const url = webhookUrl(values.url, usage);
  const settings = config().telegram;
  if (!settings)
    throw new Error(
      'TELEGRAM_BOT_TOKEN is not set: the Telegram bot is off. Set it and TELEGRAM_WEBHOOK_SECRET first.',
    );

  const commands = commandMenu(settings.language);
  const masked = `<TELEGRAM_WEBHOOK_SECRET, ${settings.webhookSecret.length} characters>`;
  console.log(`setWebhook parameters (the secret masked${values.push ? '' : '; --push sends it'}):`);
  console.log(JSON.stringify({ url, secret_token: masked, allowed_updates: ALLOWED_UPDATES }, null, 2));
  console.log(`setMyCommands commands (${settings.language}):`);
  console.log(JSON.stringify(commands, null, 2));
  if (!values.push) {
    console.log(`Run again with --push to send both to ${settings.apiRoot}.`);
    return;
  }
  const api = new Api(settings.botToken, clientOptions(settings));
  await api.setWebhook(url, { secret_token: settings.webhookSecret, allowed_updates: [...ALLOWED_UPDATES] });
  await api.setMyCommands(commands);
  console.log(
    `Pushed to ${settings.apiRoot}: Telegram now delivers messages to ${url}, and shows ${commands.length} commands.`,
  );
}
