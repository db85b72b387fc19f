/**
 * The machine's addresses on its local network (a phone on the same Wi-Fi reaches it there):
 * every IPv4 address of a non-loopback interface, link-local ones (169.254/16, no DHCP) aside.
 */
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os'

export function lanAddresses(interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces()): string[] {
  const out: string[] = []
  for (const list of Object.values(interfaces))
    for (const a of list ?? [])
      if (a.family === 'IPv4' && !a.internal && !a.address.startsWith('169.254.') && !out.includes(a.address))
        out.push(a.address)
  return out
}
