#!/bin/bash
# Build gpio-sim (the kernel's simulated GPIO chip) as a module for Debian's kernel,
# which ships without it (no CONFIG_GPIO_SIM, nor the IRQ_SIM it needs): the two
# source files come from linux-source, irq_sim.c is bundled into the module, and
# irq_to_desc(), which modules may not call, becomes generic_handle_irq().
#
#   gpio_sim.patch.sh ROOTFS KVER      (run as root; builds inside the chroot)
set -euo pipefail
ROOTFS=$1 KVER=$2
SRC_TAR=$(ls "$ROOTFS"/usr/src/linux-source-*.tar.xz | head -n 1)
TOP=$(basename "$SRC_TAR" .tar.xz)
BUILD="$ROOTFS/root/gpio-sim"
rm -rf "$BUILD"; mkdir -p "$BUILD"
tar -xJf "$SRC_TAR" -C "$BUILD" --strip-components=1 \
    "$TOP/drivers/gpio/gpio-sim.c" "$TOP/drivers/gpio/gpiolib.h" "$TOP/kernel/irq/irq_sim.c"
cd "$BUILD"
mv drivers/gpio/gpio-sim.c gpio-sim-main.c
mv drivers/gpio/gpiolib.h gpiolib.h
mv kernel/irq/irq_sim.c irq_sim.c
# irq_sim.c: irq_to_desc() is not exported to modules; handle the interrupt by number.
python3 - irq_sim.c <<'PY'
import re, sys
path = sys.argv[1]
text = open(path).read()
text, n = re.subn(r"handle_simple_irq\(irq_to_desc\((\w+)\)\);", r"generic_handle_irq(\1);", text)
if n == 0:
    text, n = re.subn(r"irq_to_desc\((\w+)\)", r"irq_to_desc_unexported(\1)", text)
open(path, "w").write(text)
print(f"irq_sim.c: {n} call(s) patched", file=sys.stderr)
PY
cat > Makefile <<'MK'
obj-m := gpio-sim.o
gpio-sim-objs := gpio-sim-main.o irq_sim.o
MK
chroot "$ROOTFS" make -s -C "/lib/modules/$KVER/build" M=/root/gpio-sim modules
mkdir -p "$ROOTFS/lib/modules/$KVER/extra"
cp gpio-sim.ko "$ROOTFS/lib/modules/$KVER/extra/"
chroot "$ROOTFS" depmod "$KVER"
rm -rf "$BUILD"
