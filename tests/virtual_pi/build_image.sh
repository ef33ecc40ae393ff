#!/bin/bash
# Build the virtual Pi's disk image: Debian (as Raspberry Pi OS is), its kernel with
# gpio-sim built as a module (Debian's kernel lacks it), the Python packages the Pi
# would take from the Raspberry Pi archive built into a wheelhouse, and the product
# installed by its own install.sh. Cached by the hash of its inputs.
#
#   tests/virtual_pi/build_image.sh CACHE_DIR      prints the image's folder
#
# Needs root, mmdebstrap and mkfs.ext4 (tests/host_packages.py installs them).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
CACHE=${1:?usage: build_image.sh CACHE_DIR}

# The apt sources of this machine (the registry it reaches), handed to mmdebstrap.
SOURCES=()
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] && grep -qs "debian" "$f" && grep -qs "bookworm" "$f" && SOURCES+=("$f")
done
[ ${#SOURCES[@]} -gt 0 ] || { echo "build_image.sh: no Debian bookworm apt sources on this machine" >&2; exit 1; }

PACKAGES="systemd-sysv,udev,kmod,dbus,procps,sudo,util-linux,python3,python3-venv,python3-smbus2,python3-spidev,i2c-tools,gpiod,dmsetup,e2fsprogs,fonts-misaki,fonts-terminus-otb,fonts-unifont,linux-image-amd64,linux-headers-amd64,linux-source-6.1,xz-utils,gcc,make,libc6-dev,swig,python3-dev"
# The product is an input, as install.sh installs it (its code, its unit and config,
# install.sh itself): the image holds this checkout's product, so the guests start
# from it at once and the guest's own install.sh runs are updates that change nothing.
PRODUCT=$(cd "$REPO" && find robinson_core firmware systemd -type f ! -path '*/__pycache__/*' | LC_ALL=C sort)
key=$( { cat "$0" "$HERE/gpio_sim.patch.sh" "$HERE"/guest/*.service "$HERE/guest/vpi-identity.conf" \
          "$REPO/setup.cfg" "$REPO/pyproject.toml" "$REPO/install.sh" "${SOURCES[@]}"; \
        (cd "$REPO" && echo "$PRODUCT" && echo "$PRODUCT" | tr '\n' '\0' | xargs -0 cat); \
        echo "$PACKAGES"; } | sha256sum | cut -c1-16)
OUT="$CACHE/$key"
if [ -f "$OUT/done" ]; then echo "$OUT"; exit 0; fi

rm -rf "$OUT"; mkdir -p "$OUT"
WORK=$(mktemp -d "$CACHE/build.XXXXXX")
trap 'umount -R "$WORK/root/proc" "$WORK/root/sys" "$WORK/root/dev" 2>/dev/null || true; rm -rf "$WORK"' EXIT
ROOTFS="$WORK/root"

echo "virtual Pi: debootstrapping Debian ($key)" >&2
mmdebstrap --quiet --variant=minbase --mode=root --include="$PACKAGES" \
    --customize-hook='echo robinson-vpi > "$1/etc/hostname"' \
    --customize-hook='echo "root:robinson" | chroot "$1" chpasswd' \
    bookworm "$ROOTFS" "${SOURCES[@]}" >&2

KVER=$(ls "$ROOTFS/lib/modules" | sort -V | tail -n 1)
mount --bind /proc "$ROOTFS/proc"; mount --bind /sys "$ROOTFS/sys"; mount --bind /dev "$ROOTFS/dev"
cp /etc/resolv.conf "$ROOTFS/etc/resolv.conf"
# pip in the chroot trusts what this machine trusts (a registry behind a proxy's CA).
CA=/etc/ssl/certs/ca-certificates.crt
if [ -f "$CA" ]; then
    mkdir -p "$ROOTFS/etc/ssl/certs" && cp -L "$CA" "$ROOTFS$CA"
    export PIP_CERT=$CA
fi
unset PIP_FIND_LINKS PIP_CONSTRAINT PIP_EXTRA_INDEX_URL

echo "virtual Pi: building gpio-sim for $KVER" >&2
bash "$HERE/gpio_sim.patch.sh" "$ROOTFS" "$KVER" >&2

echo "virtual Pi: the wheelhouse (lgpio, rpi-lgpio and the product's dependencies)" >&2
cp -R "$REPO/setup.cfg" "$REPO/pyproject.toml" "$REPO/README.md" "$REPO/robinson_core" "$REPO/firmware" \
    "$REPO/systemd" "$REPO/install.sh" "$ROOTFS/root/"
mkdir -p "$ROOTFS/root/tests"  # install.sh copies what it builds; tests are not part of it
chroot "$ROOTFS" sh -ec '
    python3 -m venv /tmp/wheeler
    /tmp/wheeler/bin/pip install -q --disable-pip-version-check wheel
    /tmp/wheeler/bin/pip wheel -q --disable-pip-version-check --prefer-binary -w /opt/wheelhouse \
        lgpio rpi-lgpio setuptools wheel /root
    rm -rf /tmp/wheeler /opt/wheelhouse/robinson_table-*.whl
' >&2

echo "virtual Pi: install.sh, as a Pi owner would run it" >&2
chroot "$ROOTFS" sh -ec 'cd /root && ./install.sh --wheelhouse /opt/wheelhouse --no-fast-i2c' >&2
rm -rf "$ROOTFS/root/robinson_core" "$ROOTFS/root/firmware" "$ROOTFS/root/systemd" \
    "$ROOTFS/root/install.sh" "$ROOTFS/root/setup.cfg" "$ROOTFS/root/pyproject.toml" \
    "$ROOTFS/root/README.md" "$ROOTFS/root/tests"

echo "virtual Pi: the test harness's units (their scripts come from the 9p share)" >&2
install -m 0644 "$HERE/guest/vpi-hardware.service" "$ROOTFS/etc/systemd/system/"
install -m 0644 "$HERE/guest/vpi-harness.service" "$ROOTFS/etc/systemd/system/"
install -D -m 0644 "$HERE/guest/vpi-identity.conf" \
    "$ROOTFS/etc/systemd/system/robinson-table.service.d/vpi-identity.conf"
install -d "$ROOTFS/etc/vpi"
printf 'processor\t: 0\nmodel name\t: ARMv7 Processor rev 4 (v7l)\nHardware\t: BCM2835\nRevision\t: a02082\nSerial\t\t: 00000000robinson\nModel\t\t: Raspberry Pi 3 Model B Rev 1.2\n' \
    > "$ROOTFS/etc/vpi/cpuinfo"
chroot "$ROOTFS" systemctl enable vpi-hardware.service vpi-harness.service >&2
chroot "$ROOTFS" systemctl mask getty@tty1.service serial-getty@ttyS0.service systemd-timesyncd.service apt-daily.timer apt-daily-upgrade.timer >&2 || true

echo "virtual Pi: a quicker boot (each second of it is taken three times a run)" >&2
# What a Pi has no use for, or a test: the PC's speaker, watchdog, SATA, KVM and
# crypto drivers udev would load, binfmt, utmp, a journal on disk (the harness copies
# it out). The PC's SMBus (i2c_i801) stays: it is i2c-0, so the panel's bus is i2c-1.
printf 'blacklist %s\n' pcspkr iTCO_wdt iTCO_vendor_support lpc_ich ahci libahci kvm kvm_amd \
    kvm_intel aesni_intel ghash_clmulni_intel sha512_ssse3 sha256_ssse3 sha1_ssse3 \
    crc32_pclmul polyval_clmulni evdev joydev serio_raw psmouse sg \
    > "$ROOTFS/etc/modprobe.d/vpi-quiet.conf"
chroot "$ROOTFS" systemctl mask systemd-binfmt.service proc-sys-fs-binfmt_misc.automount \
    systemd-update-utmp.service e2scrub_reap.service modprobe@drm.service >&2
mkdir -p "$ROOTFS/etc/systemd/journald.conf.d"
printf '[Journal]\nStorage=volatile\n' > "$ROOTFS/etc/systemd/journald.conf.d/vpi.conf"
# An initramfs of the three modules the root disk needs, not all of them.
echo MODULES=list > "$ROOTFS/etc/initramfs-tools/conf.d/vpi.conf"
printf '%s\n' virtio_pci virtio_blk ext4 >> "$ROOTFS/etc/initramfs-tools/modules"
chroot "$ROOTFS" update-initramfs -u -k "$KVER" >&2
printf '%s\n' 'host /mnt/host 9p trans=virtio,version=9p2000.L,msize=262144,nofail,x-systemd.automount 0 0' >> "$ROOTFS/etc/fstab"
mkdir -p "$ROOTFS/mnt/host"
rm -f "$ROOTFS/etc/resolv.conf" "$ROOTFS$CA"
umount "$ROOTFS/proc" "$ROOTFS/sys" "$ROOTFS/dev"

cp "$ROOTFS/boot/vmlinuz-$KVER" "$OUT/vmlinuz"
cp "$ROOTFS/boot/initrd.img-$KVER" "$OUT/initrd.img"
rm -rf "$ROOTFS/usr/src/linux-source-"* "$ROOTFS/var/cache/apt/archives/"*.deb
echo "virtual Pi: the disk image" >&2
mkfs.ext4 -q -F -L vpi-root -d "$ROOTFS" "$OUT/rootfs.img" 3G >&2
echo "$KVER" > "$OUT/kernel-version"
touch "$OUT/done"
for old in "$CACHE"/*/; do  # images of other inputs: only this one is wanted now
    [ "${old%/}" != "$OUT" ] && [ "${old%/}" != "$CACHE/last-run" ] && rm -rf "${old%/}"
done
echo "$OUT"
