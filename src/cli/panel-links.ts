/**
 * The panel's link as the terminal shows it when the service starts: first, before anything
 * else, so it is the line a person looks for. When the service listens on every interface and
 * has a LAN address, also that address's link — what a phone on the same Wi-Fi opens — and a QR
 * code of it drawn in the terminal (uqr), so the phone's camera can open it.
 */
import { renderUnicodeCompact } from 'uqr'
import type { Config } from '../config'
import { lanAddresses } from '../lib/lan'

export interface PanelLink {
  /** What the link is for: "Seller panel", "Seller panel: sign in as … with this one-time link". */
  label: string
  /** The path and query under the origin: `/admin`, `/admin/join?token=…`. */
  path: string
}

/** The LAN origins a phone could use: none behind a proxy, with a PUBLIC_URL, or bound to one address. */
export function lanOrigins(
  config: Pick<Config, 'host' | 'trustProxy' | 'publicUrl'>,
  port: number,
  lan: string[] = lanAddresses(),
): string[] {
  const everywhere = config.host === '0.0.0.0' || config.host === '::'
  if (config.trustProxy || config.publicUrl || !everywhere) return []
  return lan.map((ip) => `https://${ip}:${port}`)
}

/** The lines: the link on this machine, then each LAN link, then a QR code of the first. */
export function panelLinkLines(link: PanelLink, origin: string, lan: string[]): string {
  const lines = [`${link.label}:`, `  ${origin}${link.path}`]
  if (lan.length > 0) {
    lines.push(
      '',
      'On a phone on the same Wi-Fi (the certificate is self-signed: the browser warns once; notifications and',
      'installing need a certificate the phone trusts, see docs/phone.md):',
    )
    for (const o of lan) lines.push(`  ${o}${link.path}`)
    lines.push('', renderUnicodeCompact(`${lan[0]}${link.path}`, { border: 1 }))
  }
  return `${lines.join('\n')}\n`
}
