/** The generated certificate names the machine's LAN addresses, and is made again when they change. */
import { expect, test } from 'bun:test'
import { X509Certificate } from 'node:crypto'
import { rmSync } from 'node:fs'
import { testConfig } from '../../src/config'
import { lanAddresses } from '../../src/lib/lan'
import { loadTls } from '../../src/tls'
import { tempDir } from '../helpers/app'

test('LAN addresses: IPv4 of non-loopback interfaces, link-local aside', () => {
  const nic = (address: string, family: 'IPv4' | 'IPv6', internal = false) =>
    ({ address, family, internal, netmask: '', mac: '', cidr: null }) as never
  expect(
    lanAddresses({
      lo: [nic('127.0.0.1', 'IPv4', true)],
      wlan0: [nic('192.168.1.23', 'IPv4'), nic('fe80::1', 'IPv6')],
      eth1: [nic('169.254.3.4', 'IPv4'), nic('10.0.0.5', 'IPv4')],
    }),
  ).toEqual(['192.168.1.23', '10.0.0.5'])
})

test('the certificate names the LAN addresses; a new address makes a new one, the same ones reuse it', async () => {
  const dataDir = tempDir('sf-lan-')
  try {
    const config = testConfig({ dataDir })
    const first = await loadTls(config, ['192.168.1.23'])
    expect(first.generated).toBe(true)
    expect(new X509Certificate(first.cert).subjectAltName).toContain('IP Address:192.168.1.23')
    expect((await loadTls(config, ['192.168.1.23'])).generated).toBe(false)
    const moved = await loadTls(config, ['10.0.0.5'])
    expect(moved.generated).toBe(true)
    const names = new X509Certificate(moved.cert).subjectAltName
    expect(names).toContain('IP Address:10.0.0.5')
    expect(names).toContain('DNS:localhost')
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
})
