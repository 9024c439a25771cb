import { classifyAddress, isAddressAllowed, type AddressKind } from './address.policy';

describe('classifyAddress', () => {
  it.each<[string, AddressKind]>([
    // IPv4
    ['93.184.215.14', 'public'],
    ['8.8.8.8', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.254', 'carrierGradeNat'],
    ['169.254.169.254', 'linkLocal'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    // IPv6
    ['2606:4700:4700::1111', 'public'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456:789a::1', 'uniqueLocal'],
    ['fec0::1', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['2001::1', 'reserved'],
    // IPv6 carrying an IPv4 address: judged by the IPv4 address
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::ffff:8.8.8.8', 'public'],
    ['::ffff:0:10.0.0.1', 'private'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['2002:a00:1::1', 'private'],
    ['2002:7f00:1::', 'loopback'],
    // The deprecated IPv4-compatible form: written dotted it is read as the IPv4 address (the
    // stricter reading); written in hex it is no real host either way.
    ['::127.0.0.1', 'loopback'],
    ['::10.0.0.1', 'private'],
    ['::7f00:1', 'reserved'],
    ['::a00:1', 'reserved'],
    // not addresses
    ['example.com', 'invalid'],
    ['', 'invalid'],
    ['300.1.1.1', 'invalid'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe('isAddressAllowed', () => {
  it.each<[string, boolean, boolean]>([
    // address, allowed by default, allowed with SOURCE_ALLOW_PRIVATE_ADDRESSES
    ['93.184.215.14', true, true],
    ['2606:4700:4700::1111', true, true],
    ['127.0.0.1', false, true],
    ['::1', false, true],
    ['10.0.0.1', false, true],
    ['::ffff:10.0.0.1', false, true],
    ['fc00::1', false, true],
    ['100.64.0.1', false, true],
    ['169.254.169.254', false, false],
    ['fe80::1', false, false],
    ['0.0.0.0', false, false],
    ['::', false, false],
    ['224.0.0.1', false, false],
    ['ff02::1', false, false],
    ['255.255.255.255', false, false],
    ['192.0.2.1', false, false],
    ['not-an-ip', false, false],
  ])('%s: %s by default, %s with private addresses allowed', (address, byDefault, withPrivate) => {
    expect(isAddressAllowed(address)).toBe(byDefault);
    expect(isAddressAllowed(address, { allowPrivate: true })).toBe(withPrivate);
  });
});
