#!/usr/bin/env bash
# A throwaway OpenLDAP (slapd) for the test suite, like pg.sh: `ldap.sh start` prints nothing but
# sets it up on ldap://127.0.0.1:$QC_LDAP_PORT (default 55389, StartTLS offered) and
# ldaps://127.0.0.1:$QC_LDAPS_PORT (default 55636), config, data and a throwaway CA in $QC_LDAP_DIR
# (default /tmp/qc-test-ldap; the CA the tests trust is <dir>/ca.pem), suffix dc=example,dc=com,
# rootDN cn=admin,dc=example,dc=com / admin-secret, seeded with test/ldap/seed.ldif (its header says
# who is in it). `ldap.sh stop` removes it, `ldap.sh running` succeeds when it answers.
# Debian's own slapd service plays no part (own config, ports and pid file; if installing the
# package started it, it is stopped).
source "$(dirname "$0")/lib.sh"
PORT=${QC_LDAP_PORT:-55389}
TLS_PORT=${QC_LDAPS_PORT:-55636}
DIR=${QC_LDAP_DIR:-/tmp/qc-test-ldap}
SUFFIX=dc=example,dc=com
ROOT_DN=cn=admin,$SUFFIX
ROOT_PW=admin-secret
SLAPD=/usr/sbin/slapd

listening() { ldapwhoami -x -o nettimeout=1 -H "ldap://127.0.0.1:$PORT" -D "$ROOT_DN" -w "$ROOT_PW" >/dev/null 2>&1; }
answers() { # the rootDN can bind and read the (seeded) suffix
  ldapsearch -x -LLL -o nettimeout=1 -H "ldap://127.0.0.1:$PORT" -D "$ROOT_DN" -w "$ROOT_PW" \
    -b "$SUFFIX" -s base 1.1 >/dev/null 2>&1
}
pid() { cat "$DIR/slapd.pid" 2>/dev/null || true; }
alive() { local p; p=$(pid); [ -n "$p" ] && kill -0 "$p" 2>/dev/null; }
halt() { # stops our slapd (its pid file), waiting up to 2 s for it to let go of the ports
  local p; p=$(pid)
  if [ -n "$p" ] && kill "$p" 2>/dev/null; then
    for _ in $(seq 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.02; done
  fi
}

# The schema the seed needs beyond Debian's: mailAlternateAddress (Netscape/389 DS mailRecipient),
# and, to try Active Directory's and 389 DS's account attributes against a real server, AD's
# proxyAddresses and userAccountControl, 389 DS's nsAccountLock (test-only class qcTestAccount).
write_schema() {
  cat >"$DIR/qc-test.schema" <<'EOF'
attributetype ( 2.16.840.1.113730.3.1.13 NAME 'mailAlternateAddress'
  DESC 'Other addresses of the mailbox (Netscape Messaging Server)'
  EQUALITY caseIgnoreIA5Match SUBSTR caseIgnoreIA5SubstringsMatch
  SYNTAX 1.3.6.1.4.1.1466.115.121.1.26{256} )
objectclass ( 2.16.840.1.113730.3.2.3 NAME 'mailRecipient' SUP top AUXILIARY
  MAY ( mail $ mailAlternateAddress ) )
attributetype ( 1.2.840.113556.1.2.210 NAME 'proxyAddresses'
  EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch
  SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )
attributetype ( 1.2.840.113556.1.4.8 NAME 'userAccountControl'
  EQUALITY integerMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.27 SINGLE-VALUE )
attributetype ( 2.16.840.1.113730.3.1.610 NAME 'nsAccountLock'
  EQUALITY caseIgnoreMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )
objectclass ( 1.3.6.1.4.1.4203.666.11.1.4242 NAME 'qcTestAccount' SUP top AUXILIARY
  MAY ( proxyAddresses $ userAccountControl $ nsAccountLock ) )
EOF
}

write_config() {
  cat >"$DIR/slapd.conf" <<EOF
include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/nis.schema
include /etc/ldap/schema/inetorgperson.schema
include $DIR/qc-test.schema
modulepath /usr/lib/ldap
moduleload back_mdb
moduleload memberof
moduleload ppolicy
pidfile $DIR/slapd.pid
argsfile $DIR/slapd.args
TLSCACertificateFile $DIR/ca.pem
TLSCertificateFile $DIR/server.pem
TLSCertificateKeyFile $DIR/server.key
# Plain-text passwords in the seed compare as they are; the console never writes one.
database mdb
suffix "$SUFFIX"
rootdn "$ROOT_DN"
rootpw $ROOT_PW
directory $DIR/db
maxsize 268435456
dbnosync
index objectClass,uid,mail,mailAlternateAddress,proxyAddresses,member,memberUid eq
# Passwords: each person may change their own, anyone may bind with them, nobody reads them.
access to attrs=userPassword
  by self =xw
  by anonymous auth
  by * none
# The service account reads the whole tree (people, groups, their lock state); a person their entry.
access to dn.subtree="$SUFFIX"
  by dn.exact="cn=qc-service,$SUFFIX" read
  by self read
  by * none
overlay memberof
memberof-group-oc groupOfNames
memberof-member-ad member
memberof-memberof-ad memberOf
memberof-refint true
overlay ppolicy
ppolicy_default "cn=default,ou=policies,$SUFFIX"
EOF
}

# A throwaway CA and a certificate for localhost / 127.0.0.1 signed by it (EC keys: milliseconds).
write_certificates() {
  local ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
  openssl req -x509 "${ec[@]}" -keyout "$DIR/ca.key" -out "$DIR/ca.pem" -days 3650 \
    -subj "/CN=Quarantine Console test CA" -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
  openssl req -new "${ec[@]}" -keyout "$DIR/server.key" -out "$DIR/server.csr" -subj "/CN=localhost" 2>/dev/null
  openssl x509 -req -in "$DIR/server.csr" -CA "$DIR/ca.pem" -CAkey "$DIR/ca.key" -CAcreateserial \
    -out "$DIR/server.pem" -days 3650 -extfile <(printf '%s\n' \
      'subjectAltName=DNS:localhost,IP:127.0.0.1' 'extendedKeyUsage=serverAuth' \
      'keyUsage=critical,digitalSignature') 2>/dev/null
  chmod 600 "$DIR/ca.key" "$DIR/server.key"
}

case "${1:-}" in
start)
  if [ ! -x "$SLAPD" ] || ! command -v ldapadd >/dev/null 2>&1; then
    log "installing slapd, ldap-utils (apt)"
    if [ "$(id -u)" != 0 ]; then echo "need root for apt-get install slapd ldap-utils" >&2; exit 1; fi
    [ -n "${QC_APT_UPDATED:-}" ] || apt-get update -qq
    # Debconf's questions unanswered: the package sets up a default directory, which is not ours.
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slapd ldap-utils >/dev/null
    # Where no policy-rc.d stops it, the package started Debian's service (port 389): not ours.
    if command -v invoke-rc.d >/dev/null 2>&1; then invoke-rc.d slapd stop >/dev/null 2>&1 || true; fi
  fi
  if alive && answers; then exit 0; fi
  halt # one that runs but does not answer (or was never seeded)
  rm -rf "$DIR" && mkdir -p "$DIR/db" && chmod 700 "$DIR"
  write_schema
  write_config
  write_certificates
  # -h: loopback only, our ports; Debian's slapd.d and its service play no part (-f, own pidfile).
  urls="ldap://127.0.0.1:$PORT/ ldaps://127.0.0.1:$TLS_PORT/"
  if ! "$SLAPD" -f "$DIR/slapd.conf" -h "$urls" >"$DIR/slapd.log" 2>&1; then
    # It says why only to syslog: once more in the foreground, with its messages on stderr.
    echo "ldap.sh: slapd did not start on $urls:" >&2
    timeout 2 "$SLAPD" -d 256 -f "$DIR/slapd.conf" -h "$urls" 2>&1 | tail -n 5 >&2
    exit 1
  fi
  for _ in $(seq 100); do listening && break; sleep 0.02; done
  # Loaded over the protocol (not slapadd): the memberof overlay fills in memberOf as groups arrive.
  if ! ldapadd -x -H "ldap://127.0.0.1:$PORT" -D "$ROOT_DN" -w "$ROOT_PW" \
    -f "$ROOT/test/ldap/seed.ldif" >"$DIR/seed.log" 2>&1; then
    echo "ldap.sh: seeding failed:" >&2
    cat "$DIR/seed.log" "$DIR/slapd.log" >&2
    exit 1
  fi
  ;;
running)
  alive && answers
  ;;
stop)
  halt
  rm -rf "$DIR"
  ;;
*) echo "usage: ldap.sh start|stop|running" >&2; exit 2 ;;
esac
