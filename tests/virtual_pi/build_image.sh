#!/bin/bash
# Build the virtual Pi's disk image: Debian (as Raspberry Pi OS is), its kernel with
# gpio-sim built as a module (Debian's kernel lacks it), the Python packages the Pi
# would take from the Raspberry Pi archive built into a wheelhouse, and the product
# installed by its own install.sh. Cached by the hash of its inputs.
#
#   tests/virtual_pi/build_image.sh CACHE_DIR SUITE [ARCH]     prints the image's folder
#
# SUITE is bookworm (Raspberry Pi OS 12: Python 3.11, kernel 6.1) or trixie (13:
# Python 3.13, kernel 6.12, and Debian's Pillow, as 32-bit Pi OS has it). ARCH is amd64
# (the default tier's guests) or arm64 (the long tier's: the chroot's programs run
# through qemu-user, registered with binfmt_misc). Needs root, mmdebstrap and mkfs.ext4
# (tests/host_packages.py installs them; qemu-user-static too for arm64).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
USAGE="usage: build_image.sh CACHE_DIR SUITE [ARCH]"
SUITE=${2:?$USAGE}
ARCH=${3:-amd64}
CACHE=${1:?$USAGE}/$SUITE$([ "$ARCH" = amd64 ] || echo "-$ARCH")
case "$ARCH" in
    amd64) ;;
    arm64)  # a foreign chroot: its programs run through qemu-user (binfmt_misc, F flag)
        mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
        [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] ||
            grep -v '^#' /usr/lib/binfmt.d/qemu-aarch64.conf > /proc/sys/fs/binfmt_misc/register ;;
    *) echo "build_image.sh: ARCH is amd64 or arm64, not $ARCH" >&2; exit 2 ;;
esac

# The Debian mirror this machine reaches (its apt sources), handed to mmdebstrap for
# the suite asked for: the archive's, its updates' and its security's.
MIRROR=$(grep -hoE "https?://[^ ]*/debian/?( |$)" /etc/apt/sources.list /etc/apt/sources.list.d/*.sources \
         /etc/apt/sources.list.d/*.list 2>/dev/null | head -n 1 | tr -d ' ' || true)
SECURITY=$(grep -hoE "https?://[^ ]*/debian-security/?( |$)" /etc/apt/sources.list \
           /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null | head -n 1 | tr -d ' ' || true)
[ -n "$MIRROR" ] || { echo "build_image.sh: no Debian mirror in this machine's apt sources" >&2; exit 1; }
SOURCES=("deb $MIRROR $SUITE main" "deb $MIRROR $SUITE-updates main")
[ -n "$SECURITY" ] && SOURCES+=("deb $SECURITY $SUITE-security main")

case "$SUITE" in
    bookworm) SUITE_PACKAGES="linux-source-6.1" ;;
    # trixie's guest is a flashed card: cloud-init as Pi OS has it, a FAT boot partition
    trixie) SUITE_PACKAGES="linux-source-6.12,python3-pil,cloud-init,dosfstools" ;;
    *) echo "build_image.sh: SUITE is bookworm or trixie, not $SUITE" >&2; exit 2 ;;
esac
PACKAGES="systemd-sysv,udev,kmod,dbus,procps,sudo,util-linux,iproute2,ca-certificates,python3,python3-venv,python3-smbus2,python3-spidev,i2c-tools,gpiod,dmsetup,e2fsprogs,fonts-misaki,fonts-terminus-otb,fonts-unifont,espeak-ng,alsa-utils,linux-image-$ARCH,linux-headers-$ARCH,xz-utils,gcc,make,libc6-dev,swig,python3-dev,$SUITE_PACKAGES"
# The product is an input, as install.sh installs it (its code, its unit and config,
# install.sh itself): the image holds this checkout's product, so the guests start
# from it at once and the guest's own install.sh runs are updates that change nothing.
PRODUCT=$(cd "$REPO" && find robinson_core firmware systemd -type f ! -path '*/__pycache__/*' | LC_ALL=C sort)
key=$( { cat "$0" "$HERE/gpio_sim.patch.sh" "$HERE/spi-stub.c" "$HERE"/guest/*.service "$HERE/guest/vpi-identity.conf" \
          "$HERE"/card/* "$REPO/tools/bundle.py" "$REPO/tools/pi_kernel.py" "$REPO/tools/compile_kernel.py" "$REPO"/firstboot/* \
          "$REPO/setup.cfg" "$REPO/pyproject.toml" "$REPO/install.sh"; printf '%s\n' "${SOURCES[@]}"; \
        (cd "$REPO" && echo "$PRODUCT" && echo "$PRODUCT" | tr '\n' '\0' | xargs -0 cat); \
        echo "$PACKAGES"; } | sha256sum | cut -c1-16)
OUT="$CACHE/$key"
if [ -f "$OUT/done" ]; then echo "$OUT"; exit 0; fi

rm -rf "$OUT"; mkdir -p "$OUT"  # (and $CACHE, the suite's own folder)
WORK=$(mktemp -d "$CACHE/build.XXXXXX")
trap 'umount -R "$WORK/root/proc" "$WORK/root/sys" "$WORK/root/dev" 2>/dev/null || true; rm -rf "$WORK"' EXIT
ROOTFS="$WORK/root"

echo "virtual Pi: debootstrapping Debian $SUITE $ARCH ($key)" >&2
mmdebstrap --quiet --variant=minbase --mode=root --architectures="$ARCH" --include="$PACKAGES" \
    --essential-hook='mkdir -p "$1/etc/initramfs-tools/conf.d" "$1/usr/share/initramfs-tools/modules.d" && echo MODULES=list > "$1/etc/initramfs-tools/conf.d/vpi.conf" && printf "%s\n" virtio_pci virtio_mmio virtio_blk ext4 > "$1/usr/share/initramfs-tools/modules.d/vpi-root"' \
    --customize-hook='echo robinson-vpi > "$1/etc/hostname"' \
    --customize-hook='echo "root:robinson" | chroot "$1" chpasswd' \
    "$SUITE" "$ROOTFS" "${SOURCES[@]}" >&2

KVER=$(ls "$ROOTFS/lib/modules" | sort -V | tail -n 1)
mount --bind /proc "$ROOTFS/proc"; mount --bind /sys "$ROOTFS/sys"; mount --bind /dev "$ROOTFS/dev"
cp /etc/resolv.conf "$ROOTFS/etc/resolv.conf"
# pip in the chroot trusts what this machine trusts (a registry behind a proxy's CA)
# while the image is built; the image keeps its own ca-certificates bundle after, as
# Pi OS has one (pip's requests loads it even offline: without it `python3 -m venv`
# fails in ensurepip).
CA=/etc/ssl/certs/ca-certificates.crt
cp -L "$ROOTFS$CA" "$WORK/own-ca.crt"
if [ -f "$CA" ]; then
    cp -L "$CA" "$ROOTFS$CA.new" && mv "$ROOTFS$CA.new" "$ROOTFS$CA"
    export PIP_CERT=$CA
fi
unset PIP_FIND_LINKS PIP_CONSTRAINT PIP_EXTRA_INDEX_URL

echo "virtual Pi: building gpio-sim for $KVER" >&2
bash "$HERE/gpio_sim.patch.sh" "$ROOTFS" "$KVER" >&2
if ! grep -q "^CONFIG_I2C_STUB=" "$ROOTFS/boot/config-$KVER"; then
    echo "virtual Pi: building i2c-stub (its panel's bus; Debian's $ARCH kernel lacks it)" >&2
    mkdir -p "$ROOTFS/root/i2c-stub"
    tar -xJf "$(ls "$ROOTFS"/usr/src/linux-source-*.tar.xz | head -n 1)" -C "$ROOTFS/root/i2c-stub" \
        --strip-components=3 --wildcards '*/drivers/i2c/i2c-stub.c'
    echo 'obj-m := i2c-stub.o' > "$ROOTFS/root/i2c-stub/Makefile"
    chroot "$ROOTFS" make -s -C "/lib/modules/$KVER/build" M=/root/i2c-stub modules >&2
    install -D -m 0644 "$ROOTFS/root/i2c-stub/i2c-stub.ko" "$ROOTFS/lib/modules/$KVER/extra/i2c-stub.ko"
    rm -rf "$ROOTFS/root/i2c-stub"
fi
echo "virtual Pi: building spi-stub (its SPI0) for $KVER" >&2
mkdir -p "$ROOTFS/root/spi-stub"
cp "$HERE/spi-stub.c" "$ROOTFS/root/spi-stub/"
echo 'obj-m := spi-stub.o' > "$ROOTFS/root/spi-stub/Makefile"
chroot "$ROOTFS" make -s -C "/lib/modules/$KVER/build" M=/root/spi-stub modules >&2
install -D -m 0644 "$ROOTFS/root/spi-stub/spi-stub.ko" "$ROOTFS/lib/modules/$KVER/extra/spi-stub.ko"
chroot "$ROOTFS" depmod "$KVER"
rm -rf "$ROOTFS/root/spi-stub"

echo "virtual Pi: the wheelhouse (lgpio, rpi-lgpio and the product's dependencies, the page's too)" >&2
cp -R "$REPO/setup.cfg" "$REPO/pyproject.toml" "$REPO/README.md" "$REPO/robinson_core" "$REPO/firmware" \
    "$REPO/systemd" "$REPO/install.sh" "$ROOTFS/root/"
mkdir -p "$ROOTFS/root/tests"  # install.sh copies what it builds; tests are not part of it
# PyPI's lgpio wheels stop at Python 3.12: for trixie's 3.13 pip builds its sdist, with
# the C library it bundles linked in (PYPI=1, as lgpio's own PyPI wheels are built).
chroot "$ROOTFS" env PYPI=1 sh -ec '
    python3 -m venv /tmp/wheeler
    /tmp/wheeler/bin/pip install -q --disable-pip-version-check wheel
    /tmp/wheeler/bin/pip wheel -q --disable-pip-version-check --prefer-binary -w /opt/wheelhouse \
        lgpio rpi-lgpio setuptools wheel "/root[web]"
    rm -rf /tmp/wheeler /opt/wheelhouse/robinson_table-*.whl
' >&2
# The page's framework is chosen by memory, weighed in the table's guest (harness.py's
# the_frameworks): aiohttp beside Starlette and uvicorn as the page takes them, in a venv
# of their own, apart from the product's.
chroot "$ROOTFS" sh -ec '
    python3 -m venv /opt/frameworks
    /opt/frameworks/bin/pip install -q --disable-pip-version-check --prefer-binary \
        --find-links /opt/wheelhouse aiohttp starlette uvicorn
' >&2

if [ "$SUITE" = trixie ]; then
    # A card as the owner has it: nothing of the product in the root file system; the
    # bundle on the boot partition, installed by the first boot (FIRST-BOOT.txt). What a
    # Pi takes from apt is in the image already, as the guest has no network: the
    # Debian packages above, and the Raspberry Pi archive's python3-lgpio and
    # python3-rpi-lgpio as their wheels in the system's site-packages.
    chroot "$ROOTFS" sh -ec '
        python3 -m venv /tmp/placer
        /tmp/placer/bin/pip install -q --disable-pip-version-check --no-index \
            --find-links /opt/wheelhouse --target /usr/local/lib/python3.13/dist-packages \
            lgpio rpi-lgpio
        rm -rf /tmp/placer
    ' >&2
    echo "virtual Pi: the release bundle (tools/bundle.py), for this guest's platform" >&2
    BUNDLER="$REPO/.venv/bin/python"; [ -x "$BUNDLER" ] || BUNDLER=python3
    "$BUNDLER" "$REPO/tools/bundle.py" --out "$WORK/dist" --arch x86_64 --python 3.13 >&2
    # Raspberry Pi OS's cloud-init, as pi-gen sets it up (card/README)
    install -D -m 0644 "$HERE/card/99_raspberry-pi.cfg" "$ROOTFS/etc/cloud/cloud.cfg.d/99_raspberry-pi.cfg"
    install -d "$ROOTFS/etc/systemd/system/cloud-init-main.service.d" "$ROOTFS/boot/firmware"
    printf '[Unit]\nRequiresMountsFor=/boot/firmware\n' \
        > "$ROOTFS/etc/systemd/system/cloud-init-main.service.d/boot-firmware.conf"
    # What the owner copies onto bootfs: the bundle, its settings (a panel on SPI: the
    # one line an owner of this guest's panel changes), and the bundle's two lines at
    # the end of Imager's user-data.
    BOOTFS="$WORK/bootfs"
    mkdir -p "$BOOTFS"
    cp "$HERE"/card/meta-data "$HERE"/card/network-config "$HERE"/card/config.txt \
        "$HERE"/card/cmdline.txt "$BOOTFS/"
    cat "$HERE/card/user-data" "$REPO/firstboot/user-data.txt" > "$BOOTFS/user-data"
    cp -R "$WORK/dist/robinson-table" "$BOOTFS/"
    sed 's/^interface = "i2c"/interface = "spi"/' "$WORK/dist/robinson-table.toml" \
        > "$BOOTFS/robinson-table.toml"
    CARD_ID=${key:0:8}
    printf '%s\n' "PARTUUID=$CARD_ID-02 / ext4 defaults 0 1" \
        "PARTUUID=$CARD_ID-01 /boot/firmware vfat defaults 0 2" >> "$ROOTFS/etc/fstab"
else
    # The panel's bus as the owner set it in the config (install.sh's drop-in waits for
    # it): on arm64 i2c-stub's bus is i2c-0 (no PC SMBus before it, as on x86, where it
    # is i2c-1 as on a Pi).
    install -d "$ROOTFS/etc/robinson-table"
    if [ "$ARCH" = arm64 ]; then
        sed 's/^i2c_port = 1/i2c_port = 0/' "$REPO/systemd/config.toml"
    else
        cat "$REPO/systemd/config.toml"
    fi > "$ROOTFS/etc/robinson-table/config.toml"
    echo "virtual Pi: install.sh, as a Pi owner would run it" >&2
    chroot "$ROOTFS" sh -ec 'cd /root && ./install.sh --wheelhouse /opt/wheelhouse --no-fast-i2c' >&2
fi
rm -rf "$ROOTFS/root/robinson_core" "$ROOTFS/root/firmware" "$ROOTFS/root/systemd" \
    "$ROOTFS/root/install.sh" "$ROOTFS/root/setup.cfg" "$ROOTFS/root/pyproject.toml" \
    "$ROOTFS/root/README.md" "$ROOTFS/root/tests"

echo "virtual Pi: the test harness's units (their scripts come from the 9p share)" >&2
install -m 0644 "$HERE/guest/vpi-hardware.service" "$ROOTFS/etc/systemd/system/"
install -m 0644 "$HERE/guest/vpi-harness.service" "$ROOTFS/etc/systemd/system/"
install -D -m 0644 "$HERE/guest/vpi-identity.conf" \
    "$ROOTFS/etc/systemd/system/robinson-table.service.d/vpi-identity.conf"
install -d "$ROOTFS/etc/vpi"  # the board's identity: hardware.sh writes it at boot
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
# An initramfs of the modules the root disk needs, not all of them: written before the
# kernel's package is set up (--essential-hook), so each initramfs made is small (under
# qemu-user, for arm64, a full one took minutes each time); made again for our modules.
chroot "$ROOTFS" update-initramfs -u -k "$KVER" >&2
printf '%s\n' 'host /mnt/host 9p trans=virtio,version=9p2000.L,msize=262144,nofail,x-systemd.automount 0 0' >> "$ROOTFS/etc/fstab"
mkdir -p "$ROOTFS/mnt/host"
rm -f "$ROOTFS/etc/resolv.conf"
cp "$WORK/own-ca.crt" "$ROOTFS$CA"
umount "$ROOTFS/proc" "$ROOTFS/sys" "$ROOTFS/dev"

cp "$ROOTFS/boot/vmlinuz-$KVER" "$OUT/vmlinuz"
cp "$ROOTFS/boot/initrd.img-$KVER" "$OUT/initrd.img"
rm -rf "$ROOTFS/usr/src/linux-source-"* "$ROOTFS/var/cache/apt/archives/"*.deb
echo "virtual Pi: the disk image" >&2
if [ "$SUITE" = trixie ]; then
    # Laid out as Imager writes a card: an MBR, bootfs (FAT32) from 1 MiB, rootfs (ext4)
    # after it; fstab names both by PARTUUID (the disk's id, then the partition's number).
    BOOT_MB=512 ROOT_MB=3072  # (Pi OS makes bootfs 512 MiB: FAT32 needs 65,525 clusters)
    CARD="$OUT/card.img"
    truncate -s $((1 + BOOT_MB + ROOT_MB))M "$CARD"
    sfdisk --quiet "$CARD" >&2 <<EOF
label: dos
label-id: 0x$CARD_ID
start=1MiB, size=${BOOT_MB}MiB, type=c
start=$((1 + BOOT_MB))MiB, type=83
EOF
    mkfs.vfat -F 32 -n bootfs --offset 2048 "$CARD" $((BOOT_MB * 1024)) >&2
    MTOOLS_SKIP_CHECK=1 mcopy -Q -s -i "$CARD@@1M" "$BOOTFS"/* ::/ >&2
    mkfs.ext4 -q -F -L rootfs -E offset=$(((1 + BOOT_MB) * 1024 * 1024)) -d "$ROOTFS" "$CARD" \
        ${ROOT_MB}M >&2
    echo "$CARD_ID" > "$OUT/card-id"
else
    mkfs.ext4 -q -F -L vpi-root -d "$ROOTFS" "$OUT/rootfs.img" 3G >&2
fi
echo "$KVER" > "$OUT/kernel-version"
touch "$OUT/done"
for old in "$CACHE"/*/; do  # images of other inputs: only this one is wanted now
    [ "${old%/}" != "$OUT" ] && [ "${old%/}" != "$CACHE/last-run" ] && rm -rf "${old%/}"
done
echo "$OUT"
