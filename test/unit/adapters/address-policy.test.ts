// The SSRF address policy: only public unicast passes; private, loopback, link-local, CGNAT, multicast, reserved
// and every IPv6 form embedding such an IPv4 address are refused.
import { addressProblem } from '../../../functions/adapters/http/address-policy';

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

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '192.169.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])(
    'lets public %s through',
    (address) => {
      expect(addressProblem(address)).toBeNull();
    },
  );
});
