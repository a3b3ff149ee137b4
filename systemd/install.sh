#!/usr/bin/env bash
# Install the Alchemists lab kit as a systemd service on Raspberry Pi OS (bookworm).
#
#   sudo ./systemd/install.sh [--no-start]
#
# Run it from a checkout of the kit. It is idempotent: run it again after `git pull` to upgrade.
# What it does (docs/install.md explains each step):
#   1. apt packages: python3-venv, python3-picamera2, python3-lgpio, i2c-tools
#   2. I2C and SPI enabled with raspi-config
#   3. the system user `labkit` (no login, no home of its own)
#   4. a venv at /opt/labkit/venv with the system site packages (picamera2 comes from apt),
#      and the kit installed into it with pip
#   5. /etc/labkit/labkit.toml, only if there is none yet (an existing one is checked, never replaced)
#   6. the unit /etc/systemd/system/labkit.service, enabled and (re)started
set -euo pipefail

readonly prefix=/opt/labkit
readonly venv=$prefix/venv
readonly config=/etc/labkit/labkit.toml
readonly unit=/etc/systemd/system/labkit.service
readonly user=labkit
readonly home=/var/lib/labkit
readonly groups=(gpio i2c spi video dialout)

say() { printf 'labkit install: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

usage() {
  sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//'
}

start=1
for arg in "$@"; do
  case $arg in
    --no-start) start=0 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown option: $arg" ;;
  esac
done

src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readonly src
[[ -f $src/setup.py && -f $src/systemd/labkit.service && -f $src/firmware/default_config.toml ]] \
  || die "run this script from a checkout of the kit ($src has no setup.py)"
# 32-bit Raspberry Pi OS (armhf): pip finds no OpenCV wheel built against the system's numpy 1.24
# that picamera2 needs, so the install would fail half-way or break picamera2. Refuse it up front.
architecture=$(dpkg --print-architecture 2>/dev/null || uname -m)
case $architecture in
  armhf | armel | armv6l | armv7l)
    die "this is 32-bit Raspberry Pi OS ($architecture): the kit needs the 64-bit Raspberry Pi OS (bookworm, arm64), which runs on every Pi from the Zero 2 W up; see docs/install.md" ;;
esac
[[ $(id -u) -eq 0 ]] || die "run as root: sudo $0"

# 1. Packages ---------------------------------------------------------------------------------------
say "installing apt packages"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
packages=(python3-venv python3-pip python3-numpy i2c-tools)
if apt-cache show python3-picamera2 >/dev/null 2>&1; then
  packages+=(python3-picamera2)
else
  say "warning: python3-picamera2 is not available (not Raspberry Pi OS?): only a USB webcam will work"
fi
if apt-cache show python3-lgpio >/dev/null 2>&1; then
  packages+=(python3-lgpio)
elif apt-cache show python3-rpi-lgpio >/dev/null 2>&1; then
  packages+=(python3-rpi-lgpio)
else
  say "warning: no lgpio package: the buttons need RPi.GPIO or another gpiozero pin factory"
fi
apt-get install -y -qq --no-install-recommends "${packages[@]}"
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
  || die "the kit needs Python 3.11 or newer (Raspberry Pi OS bookworm); this is $(python3 --version)"

# 2. I2C and SPI ------------------------------------------------------------------------------------
reboot_needed=0
if command -v raspi-config >/dev/null; then
  for interface in i2c spi; do
    # get_i2c / get_spi print 0 when the interface is enabled
    if [[ $(raspi-config nonint "get_$interface") != 0 ]]; then
      say "enabling ${interface^^}"
      raspi-config nonint "do_$interface" 0
      reboot_needed=1
    fi
  done
else
  say "warning: raspi-config not found: enable I2C and SPI yourself (dtparam=i2c_arm=on, dtparam=spi=on)"
fi
# I2C runs at 100 kHz unless told otherwise: a whole 128x64 frame (1 KB) then takes about 90 ms;
# at 400 kHz (every SSD1306/SH1106 module supports it) about 23 ms.
boot_config=/boot/firmware/config.txt
[[ -f $boot_config ]] || boot_config=/boot/config.txt
if [[ -f $boot_config ]] && ! grep -q '^dtparam=i2c_arm_baudrate=' "$boot_config"; then
  say "setting the I2C bus to 400 kHz in $boot_config"
  echo 'dtparam=i2c_arm_baudrate=400000' >>"$boot_config"
  reboot_needed=1
fi

# 3. The service user -------------------------------------------------------------------------------
for group in "${groups[@]}"; do
  getent group "$group" >/dev/null || groupadd --system "$group"
done
if ! id -u "$user" >/dev/null 2>&1; then
  say "creating the system user $user"
  useradd --system --user-group --home-dir "$home" --no-create-home --shell /usr/sbin/nologin \
    --comment "Alchemists lab kit" "$user"
fi
# The unit grants the groups itself; membership also lets `sudo -u labkit labkit run` reach the devices.
usermod --append --groups "$(IFS=,; echo "${groups[*]}")" "$user"

# 4. The venv and the kit ---------------------------------------------------------------------------
if [[ ! -x $venv/bin/python ]]; then
  say "creating the venv $venv (with system site packages, for picamera2)"
  install -d -m 0755 "$prefix"
  python3 -m venv --system-site-packages "$venv"
fi
# picamera2's compiled helpers are built against the system numpy: keep pip from shadowing it with
# another version (pip then picks an opencv-python-headless build that works with it).
constraints=$(mktemp)
trap 'rm -f "$constraints"' EXIT
if numpy_version=$(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)' 2>/dev/null); then
  echo "numpy==$numpy_version" >"$constraints"
fi
say "installing the kit into $venv"
"$venv/bin/python" -m pip install --quiet --upgrade --constraint "$constraints" "$src"
[[ -x $venv/bin/labkit ]] || die "pip did not install the labkit command into $venv/bin"

# 5. The configuration ------------------------------------------------------------------------------
install -d -m 0755 "$(dirname "$config")"
if [[ ! -e $config ]]; then
  say "installing the default configuration $config"
  install -m 0640 -o root -g "$user" "$src/firmware/default_config.toml" "$config"
else
  say "keeping the existing configuration $config"
fi
if ! problem=$("$venv/bin/python" -c 'import sys; from pathlib import Path
from firmware.config import ConfigError, load_config
try:
    load_config(Path(sys.argv[1]))
except ConfigError as error:
    sys.exit(str(error))' "$config" 2>&1); then
  say "warning: the kit will refuse its configuration: $problem"
  say "warning: compare it with $src/firmware/default_config.toml"
fi

# 6. The service ------------------------------------------------------------------------------------
say "installing $unit"
install -m 0644 "$src/systemd/labkit.service" "$unit"
if [[ -d /run/systemd/system ]]; then
  systemctl daemon-reload
  systemctl enable --quiet labkit.service
  if [[ $reboot_needed == 1 ]]; then
    say "I2C/SPI were just enabled: reboot now (sudo reboot); the kit starts by itself afterwards"
  elif [[ $start == 1 ]]; then
    systemctl restart labkit.service
    say "started: systemctl status labkit; logs: journalctl -u labkit -f"
  fi
else
  say "systemd is not running here: the unit is installed but not started"
fi
say "done"
