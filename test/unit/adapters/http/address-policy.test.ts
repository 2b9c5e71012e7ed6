// The SSRF address policy: only public unicast passes; private, loopback, link-local, CGNAT, multicast, reserved
// and every IPv6 form embedding such an IPv4 address are refused.
import { addressProblem } from '../../../../functions/adapters/http/address-policy';

describe('addressProblem', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.255.0.9', 'a loopback address'],
    ['10.0.0.1', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.255', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['169.254.169.254', 'a link-local address'],
    ['100.64.0.1', 'a shared (CGNAT) address'],
    ['100.127.255.255', 'a shared (CGNAT) address'],
    ['224.0.0.251', 'a multicast address'],
    ['239.255.255.250', 'a multicast address'],
    ['0.0.0.0', 'an unspecified address'],
    ['0.1.2.3', 'an unspecified address'],
    ['240.0.0.1', 'a reserved address'],
    ['255.255.255.255', 'a broadcast address'],
    ['192.0.2.10', 'a documentation address'],
    ['198.18.0.1', 'a benchmarking address'],
    ['::1', 'a loopback address'],
    ['::', 'an unspecified address'],
    ['fc00::1', 'a private (unique local) address'],
    ['fd12:3456::1', 'a private (unique local) address'],
    ['fe80::1', 'a link-local address'],
    ['fe80::1%eth0', 'a link-local address'],
    ['ff02::1', 'a multicast address'],
    ['::ffff:127.0.0.1', 'the IPv4-mapped form of 127.0.0.1, a loopback address'],
    ['::ffff:7f00:1', 'the IPv4-mapped form of 127.0.0.1, a loopback address'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'the IPv4-mapped form of 169.254.169.254, a link-local address'],
    ['::ffff:10.0.0.1', 'the IPv4-mapped form of 10.0.0.1, a private address'],
    ['::ffff:0:127.0.0.1', 'the IPv4-translated form of 127.0.0.1, a loopback address'],
    ['::127.0.0.1', 'the IPv4-compatible form of 127.0.0.1, a loopback address'],
    ['64:ff9b::7f00:1', 'the NAT64 form of 127.0.0.1, a loopback address'],
    ['64:ff9b::169.254.169.254', 'the NAT64 form of 169.254.169.254, a link-local address'],
    ['64:ff9b:1::1', 'a local-use NAT64 address'],
    ['2002:c0a8:0101::1', 'the 6to4 form of 192.168.1.1, a private address'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'the Teredo form of 127.0.0.1, a loopback address'],
    ['2001:db8::1', 'a documentation address'],
    ['100::1', 'a reserved address'],
    ['[::1]', 'a loopback address'],
    ['localhost', 'not an IP address'],
  ])('refuses %s as %s', (address, problem) => {
    expect(addressProblem(address)).toBe(problem);
  });

  // Every spelling of an address gets the same answer: case, leading zeros, no compression, brackets with a zone.
  it.each([
    ['FE80::1', 'a link-local address'],
    ['[fe80::1%eth0]', 'a link-local address'],
    ['0000:0000:0000:0000:0000:0000:0000:0001', 'a loopback address'],
    ['0:0:0:0:0:0:0:0', 'an unspecified address'],
    ['::FFFF:7F00:0001', 'the IPv4-mapped form of 127.0.0.1, a loopback address'],
    ['0:0:0:0:0:ffff:192.168.0.1', 'the IPv4-mapped form of 192.168.0.1, a private address'],
    ['::ffff:0:a9fe:a9fe', 'the IPv4-translated form of 169.254.169.254, a link-local address'],
    ['::ffff:255.255.255.255', 'the IPv4-mapped form of 255.255.255.255, a broadcast address'],
    ['::ffff:100.64.0.1', 'the IPv4-mapped form of 100.64.0.1, a shared (CGNAT) address'],
    ['64:FF9B::A9FE:A9FE', 'the NAT64 form of 169.254.169.254, a link-local address'],
    ['2002:7f00:1::', 'the 6to4 form of 127.0.0.1, a loopback address'],
  ])('refuses the spelling %s as %s', (address, problem) => {
    expect(addressProblem(address)).toBe(problem);
  });

  // The edges of each range: the first and last address inside, the neighbours outside.
  it.each([
    ['febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'a link-local address'],
    ['fec0::1', 'a site-local address'],
    ['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'a reserved address'],
    ['fe00::1', 'a reserved address'],
    ['1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'a reserved address'],
    ['4000::', 'a reserved address'],
    ['::2', 'the IPv4-compatible form of 0.0.0.2, an unspecified address'],
    ['::8.8.8.8', 'a reserved address'],
    ['::1:0:0:0', 'a reserved address'],
    ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'a documentation address'],
    ['64:ff9b:1:ffff::1', 'a local-use NAT64 address'],
    ['ff00::', 'a multicast address'],
    ['100.63.255.255', null],
    ['100.64.0.0', 'a shared (CGNAT) address'],
    ['172.15.255.255', null],
    ['169.254.0.0', 'a link-local address'],
    ['169.255.0.0', null],
    ['198.17.255.255', null],
    ['198.19.255.255', 'a benchmarking address'],
    ['198.20.0.0', null],
    ['223.255.255.255', null],
    ['255.255.255.254', 'a reserved address'],
    ['192.0.1.1', null],
    ['192.88.99.1', 'a reserved address'],
    ['2000::', null],
    ['3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', null],
    ['2001:1::1', null],
    ['2001:db9::1', null],
    ['64:ff9b:2::1', 'a reserved address'],
    ['::ffff:0:8.8.8.8', null],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', null],
  ])('classifies the range edge %s as %s', (address, problem) => {
    expect(addressProblem(address)).toBe(problem);
  });

  it.each(['', '1.2.3', '01.2.3.4', '::ffff:256.1.1.1', '1::2::3', '1:2:3:4:5:6:7:8:9', '[::1]]', ' 1.2.3.4'])(
    'refuses %j as not an IP address',
    (address) => {
      expect(addressProblem(address)).toBe('not an IP address');
    },
  );

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '192.169.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('lets public %s through', (address) => {
    expect(addressProblem(address)).toBeNull();
  });
});
