#!/usr/bin/env bash
# Installs reedboard in an arm64 Debian userland exactly as docs/building.md's "Installing on the
# Pi" says, then starts the board as deploy/reedboard.service starts it, on a faked
# Raspberry Pi Zero 2 W, with the real RPi.GPIO and Adafruit LED libraries.
#
#   scripts/pi_userland.sh FOLDER [RELEASE...]      (RELEASE: bookworm, trixie; default both)
#
# Needs root, debootstrap and qemu-user-static with qemu-aarch64 registered in binfmt_misc
# with the F flag (Debian's qemu-user-static package does it). FOLDER/RELEASE holds each
# userland (made by debootstrap the first time, slow under emulation: 15-30 minutes); the
# results go to FOLDER/RELEASE.log. MIRROR names the Debian archive (default Debian's own);
# PIP_CERT, when set, is a CA bundle the userland's pip trusts (copied in), for a network
# whose TLS goes through a proxy. STEPS chooses among "install board pi5" (the default:
# all three, in that order); "board" alone starts the board on an earlier run's install.
#
# What is faked (the rest is the real thing, run by qemu-user):
# - /proc/cpuinfo: a Pi Zero 2 W's (Hardware BCM2835, Revision 902120), bind-mounted over
#   the userland's /proc/cpuinfo; RPi.GPIO reads the board from it.
# - BLINKA_FORCECHIP=BCM2XXX and BLINKA_FORCEBOARD=RASPBERRY_PI_ZERO_2_W: Blinka's platform
#   detection, which reads the device tree, a Pi's only.
# - /dev/gpiomem: a 4 KiB regular file (group gpio, as on Raspberry Pi OS) that RPi.GPIO
#   maps as the GPIO registers: the matrix reads every square empty.
# - /dev/spidev0.0: a regular file (group spi); scripts/pi_userland/fake_spidev.c, compiled
#   in the userland and preloaded, answers its SPI ioctls and logs each transfer: the LED
#   frames the board sends.
# Then the Pi 5's commands of docs/pi-install.md run in a fresh venv: they install and
# import; the Pi 5's GPIO (RP1, through /dev/gpiochip*) is not faked.
# - the gpio and spi groups, and /etc/systemd/system (Raspberry Pi OS has them; a minimal
#   Debian userland does not).
# - raspi-config and systemctl are not run; the unit's ExecStart is, as its User and
#   groups (setpriv, which then is the board: SIGTERM reaches it as systemd sends it).
set -euo pipefail

MIRROR=${MIRROR:-http://deb.debian.org/debian}
REPO=$(cd "$(dirname "$0")/.." && pwd)
RUN_SECONDS=${RUN_SECONDS:-90}
STEPS=${STEPS:-install board pi5}

if [[ $# -lt 1 ]]; then
  echo "usage: scripts/pi_userland.sh FOLDER [bookworm|trixie ...]" >&2
  exit 2
fi
FOLDER=$(mkdir -p "$1" && cd "$1" && pwd)
shift
RELEASES=("$@")
[[ ${#RELEASES[@]} -gt 0 ]] || RELEASES=(bookworm trixie)

if [[ $(id -u) != 0 ]]; then
  echo "pi_userland: needs root (debootstrap, chroot, mounts)" >&2
  exit 2
fi
if ! grep -qs '^flags:.*F' /proc/sys/fs/binfmt_misc/qemu-aarch64; then
  echo "pi_userland: qemu-aarch64 is not registered in binfmt_misc with the F flag" \
    "(install qemu-user-static, or update-binfmts --enable qemu-aarch64)" >&2
  exit 2
fi

# A command in the userland, with a clean environment: none of this machine's settings
# (pip's, TLS's) leak in.
in_userland() { # in_userland ROOT COMMAND...
  local root=$1
  shift
  chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}

MOUNTS=()
unmount_all() {
  local i
  for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
    umount -l "${MOUNTS[i]}" 2>/dev/null || true
  done
  MOUNTS=()
}
trap unmount_all EXIT

mount_into() { # mount_into TARGET mount-arguments...
  local target=$1
  shift
  mount "$@" "$target"
  MOUNTS+=("$target")
}

# The first fenced block under "## Installing on the Pi" (docs/building.md), without the steps a userland
# has no use for (raspi-config, systemd, the journal) and without sudo (we are root).
readme_commands() {
  awk '/^## Installing on the Pi/ {section = 1; next}
       section && /^#/ {exit}
       section && /^```/ {if (block) exit; block = 1; next}
       block {print}' "$REPO/docs/building.md" |
    sed -e 's/[[:space:]]*#.*$//' -e 's/^sudo //' |
    grep -vE '^(raspi-config|systemctl|journalctl)|^$' || true
}

# The Pi 5's commands: the first fenced block under "## Pi 5" in docs/pi-install.md.
pi5_commands() {
  awk '/^## Pi 5/ {section = 1; next}
       section && /^#/ {exit}
       section && /^```/ {if (block) exit; block = 1; next}
       block {print}' "$REPO/docs/pi-install.md" |
    sed -e 's/[[:space:]]*#.*$//' -e 's/^sudo //' | grep -v '^$' || true
}

# The unit's command line, so that the board starts as the service starts it.
unit_command() {
  sed -n 's/^ExecStart=//p' "$REPO/deploy/reedboard.service"
}

fake_cpuinfo() {
  local core
  for core in 0 1 2 3; do
    printf 'processor\t: %s\nBogoMIPS\t: 38.40\nFeatures\t: fp asimd evtstrm crc32 cpuid\n' "$core"
    printf 'CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\n'
    printf 'CPU part\t: 0xd03\nCPU revision\t: 4\n\n'
  done
  printf 'Hardware\t: BCM2835\nRevision\t: 902120\nSerial\t\t: 00000000c0ffee00\n'
  printf 'Model\t\t: Raspberry Pi Zero 2 W Rev 1.0\n'
}

userland() { # userland RELEASE ROOT: made once by debootstrap
  local release=$1 root=$2
  if [[ -x $root/usr/bin/apt-get && ! -d $root/debootstrap ]]; then
    return
  fi
  echo "== debootstrap $release arm64 from $MIRROR"
  local started=$SECONDS
  debootstrap --arch=arm64 --variant=minbase "$release" "$root" "$MIRROR"
  echo "debootstrap took $((SECONDS - started)) s"
}

prepare() { # prepare ROOT: the mounts, the devices and the Pi's identity
  local root=$1
  mount_into "$root/proc" -t proc proc
  fake_cpuinfo >"$root/run/fake-cpuinfo"
  mount_into "$root/proc/cpuinfo" --bind "$root/run/fake-cpuinfo"
  mount_into "$root/dev" -t tmpfs -o mode=755 dev
  local device
  for device in null zero random urandom tty; do
    touch "$root/dev/$device"
    mount_into "$root/dev/$device" --bind "/dev/$device"
  done
  mkdir -p "$root/dev/shm" "$root/dev/pts"
  ln -sf /proc/self/fd "$root/dev/fd"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  mkdir -p "$root/etc/systemd/system" # where the install guide installs the unit; no systemd here
  in_userland "$root" groupadd -f --system gpio
  in_userland "$root" groupadd -f --system spi
  head -c 4096 /dev/zero >"$root/dev/gpiomem"
  : >"$root/dev/spidev0.0"
  in_userland "$root" chown root:gpio /dev/gpiomem
  in_userland "$root" chown root:spi /dev/spidev0.0
  chmod 660 "$root/dev/gpiomem" "$root/dev/spidev0.0"
}

install_as_readme() { # install_as_readme ROOT: the install guide's commands
  local root=$1
  rm -rf "$root/opt/reedboard" "$root/etc/reedboard"
  in_userland "$root" userdel reedboard 2>/dev/null || true
  mkdir -p "$root/opt/reedboard/src"
  # The repository's files as they are in this working tree (a copy, as the install guide says).
  git -C "$REPO" ls-files -z --cached --others --exclude-standard |
    (cd "$REPO" && tar --null -T - -cf -) | tar -xf - -C "$root/opt/reedboard/src"
  readme_commands | run_commands "$root" readme-install
}

run_commands() { # run_commands ROOT NAME: stdin's commands in the userland, timed one by one
  local root=$1 name=$2
  {
    echo 'set -e'
    echo 'export DEBIAN_FRONTEND=noninteractive'
    if [[ -n ${PIP_CERT:-} ]]; then
      cp "$PIP_CERT" "$root/run/pip-cert.pem"
      echo 'export PIP_CERT=/run/pip-cert.pem'
    fi
    echo 'PS4="+ [\$(date +%s)] "'
    echo 'set -x'
    cat
  } >"$root/run/$name.sh"
  echo "== $name"
  grep -v -e '^set ' -e '^export ' -e '^PS4=' "$root/run/$name.sh"
  local started=$SECONDS
  in_userland "$root" /bin/bash "/run/$name.sh"
  echo "$name took $((SECONDS - started)) s"
}

check_pins() { # check_pins ROOT: every package in the venv is pinned, at that version
  local root=$1
  in_userland "$root" /opt/reedboard/venv/bin/pip freeze --exclude-editable | tee "$root/run/freeze.txt"
  in_userland "$root" /opt/reedboard/venv/bin/pip check
  in_userland "$root" /opt/reedboard/venv/bin/python - <<'EOF'
import re
import sys


def pins(path):
    found = {}
    for line in open(path):
        match = re.match(r"^([A-Za-z0-9._-]+)==(\S+)", line.strip())
        if match:
            found[re.sub(r"[-_.]+", "-", match.group(1)).lower()] = match.group(2)
    return found


pinned = pins("/opt/reedboard/src/deploy/pi-constraints.txt")
installed = pins("/run/freeze.txt")
off = sorted(f"{name}=={version}" for name, version in installed.items()
             if pinned.get(name) != version)
if off:
    print(f"installed but not pinned at that version: {off}")
    sys.exit(1)
print(f"{len(installed)} packages installed, each at its pinned version")
EOF
}

report_installed() { # report_installed ROOT
  local root=$1
  echo "== installed"
  in_userland "$root" python3 --version
  in_userland "$root" dpkg-query -W -f '${Package} ${Version}\n' python3-venv python3-dev gcc
  check_pins "$root"
  in_userland "$root" /opt/reedboard/venv/bin/python -c \
    'import RPi.GPIO, _rpi_ws281x, neopixel, neopixel_spi; print("RPi.GPIO", RPi.GPIO.VERSION, "and the LED libraries import")'
}

pi5_route() { # pi5_route ROOT: a fresh venv, installed as docs/pi-install.md says for a Pi 5
  local root=$1
  rm -rf "$root/opt/reedboard/venv"
  in_userland "$root" python3 -m venv /opt/reedboard/venv
  pi5_commands | run_commands "$root" pi5-install
  check_pins "$root"
  in_userland "$root" /opt/reedboard/venv/bin/python -c \
    'import lgpio; print(f"lgpio {lgpio.LGPIO_PY_VERSION:#x} imports")'
  # rpi-lgpio's RPi.GPIO, and Blinka's board through it, refuse to load off a Pi 5 (they
  # read its device tree, which is not faked): only the install and lgpio are checked.
}

start_board() { # start_board ROOT: the unit's ExecStart, as its user, for RUN_SECONDS
  local root=$1
  echo "== the board, as the unit starts it, on the faked Pi Zero 2 W"
  cp "$REPO/scripts/pi_userland/fake_spidev.c" "$root/run/"
  in_userland "$root" gcc -O2 -shared -fPIC -o /run/fake_spidev.so /run/fake_spidev.c -ldl
  mkdir -p "$root/var/lib/reedboard"
  in_userland "$root" chown reedboard:reedboard /var/lib/reedboard
  rm -f "$root/run/spi.log" "$root/var/lib/reedboard/journal.sqlite"
  touch "$root/run/spi.log"
  chmod 666 "$root/run/spi.log"
  echo "timing reedboard --help:"
  local help_started=$EPOCHREALTIME
  in_userland "$root" /opt/reedboard/venv/bin/reedboard --help >/dev/null
  echo "reedboard --help took $(awk "BEGIN {printf \"%.2f\", $EPOCHREALTIME - $help_started}") s under qemu"
  local status=0
  # SIGTERM after RUN_SECONDS, as systemctl stop does; the board must end with status 0.
  timeout --preserve-status -s TERM "$RUN_SECONDS" \
    chroot "$root" /usr/bin/env -i LANG=C.UTF-8 PATH=/usr/sbin:/usr/bin:/sbin:/bin \
    setpriv --reuid=reedboard --regid=reedboard --init-groups env \
    BLINKA_FORCECHIP=BCM2XXX BLINKA_FORCEBOARD=RASPBERRY_PI_ZERO_2_W \
    LD_PRELOAD=/run/fake_spidev.so FAKE_SPIDEV_LOG=/run/spi.log \
    $(unit_command) || status=$?
  echo "reedboard run ended with status $status after SIGTERM at ${RUN_SECONDS} s"
  local frames
  frames=$(wc -l <"$root/run/spi.log")
  echo "LED frames sent over SPI: $frames; each different frame, with how many times it was sent:"
  sort "$root/run/spi.log" | uniq -c
  [[ $status == 0 && $frames -gt 0 ]]
}

check_release() {
  local release=$1 root="$FOLDER/$1"
  userland "$release" "$root"
  prepare "$root"
  if [[ " $STEPS " == *" install "* ]]; then
    install_as_readme "$root"
  fi
  if [[ " $STEPS " == *" board "* ]]; then
    report_installed "$root"
    start_board "$root"
  fi
  if [[ " $STEPS " == *" pi5 "* ]]; then
    pi5_route "$root"
  fi
}

failed=()
for release in "${RELEASES[@]}"; do
  echo "=== $release ($(date -u +%Y-%m-%dT%H:%MZ))"
  set +e
  # A subshell, so that set -e stops the release's check at its first failure.
  (
    set -e
    trap unmount_all EXIT
    check_release "$release"
  ) > >(tee "$FOLDER/$release.log") 2>&1
  status=$?
  set -e
  if [[ $status == 0 ]]; then
    echo "=== $release: installed as the install guide says, and the board ran" | tee -a "$FOLDER/$release.log"
  else
    echo "=== $release: FAILED (see $FOLDER/$release.log)" | tee -a "$FOLDER/$release.log"
    failed+=("$release")
  fi
done
[[ ${#failed[@]} == 0 ]]
