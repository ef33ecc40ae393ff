#!/bin/sh
# The virtual Pi's hardware, brought up at boot before the table starts (test harness
# only; on a Pi the kernel does this): the board's GPIO chips (gpio-sim), an SSD1306
# answering at 0x3C on I2C bus 1 (i2c-stub), the kernel's trace of every SMBus write
# (how the tests read back what reached the panel), and the board's identity.
#
# The board (settings.json): a Pi 3 has one controller, pinctrl-bcm2835, gpiochip0.
# A Pi 5 has the RP1's header bank (pinctrl-rp1) beside the SoC's own brcmstb banks,
# and the header is not gpiochip0: a decoy bank comes first here. The table finds
# the header's chip by its label (firmware/gpiochip.py), as it does on the board.
set -eu
# What the host said this guest is, read in one python (each costs a second under TCG).
read -r BOARD PANEL IDENTITY PART <<EOF
$(python3 -c "import json; s = json.load(open('/mnt/host/settings.json'))
print(s.get('board', 'pi3'), s.get('panel', 'i2c'), s.get('identity', 'cpuinfo').replace(' ', '-'), s.get('part', 'table'))")
EOF
# The card's first boot (the cuts' guest, before any phase): its install gets the host's
# cores, the table's guest paused meanwhile, softly (vm.py's YIELD: a guest whose timing
# is judged goes first). The harness takes it back once the table is up.
if [ "$PART" = cuts ] && [ ! -e /mnt/host/results/phase ]; then
    echo "soft: the first boot's install" > /mnt/host/results/yield
fi
modprobe configfs
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
modprobe gpio-sim
SIM=/sys/kernel/config/gpio-sim/pi
bank() {  # NAME LINES LABEL
    mkdir "$SIM/$1"
    echo "$2" > "$SIM/$1/num_lines"
    echo "$3" > "$SIM/$1/label"
}
if [ ! -d "$SIM" ]; then
    mkdir "$SIM"
    case "$BOARD" in
        pi5) bank bank0 32 gpio-brcmstb@107d508500   # the decoy: the SoC's own bank
             bank bank1 54 pinctrl-rp1 ;;
        *)   bank bank0 58 pinctrl-bcm2835 ;;
    esac
    echo 1 > "$SIM/live"
fi
# The identity gpiozero reads: an arm64 guest has a Pi's device tree (a model and
# linux,revision, as the board's firmware gives them); an x86 guest has the Revision
# line of a Pi's /proc/cpuinfo, bound over /proc/cpuinfo for the service by the
# image's drop-in and here for commands by hand.
if [ "$IDENTITY" != cpuinfo ]; then
    rm -f /etc/vpi/cpuinfo /etc/vpi/identity.env
    echo "vpi-hardware: $(tr -d '\0' < /proc/device-tree/model), by its device tree"
else
case "$BOARD" in
    pi5) printf 'processor\t: 0\nBogoMIPS\t: 108.00\nCPU part\t: 0xd0b\nRevision\t: c04170\nSerial\t\t: 00000000robinson\nModel\t\t: Raspberry Pi 5 Model B Rev 1.0\n' ;;
    *)   printf 'processor\t: 0\nmodel name\t: ARMv7 Processor rev 4 (v7l)\nHardware\t: BCM2835\nRevision\t: a02082\nSerial\t\t: 00000000robinson\nModel\t\t: Raspberry Pi 3 Model B Rev 1.2\n' ;;
esac > /etc/vpi/cpuinfo
# rpi-lgpio (luma's D/C and reset lines on SPI) reads the revision from the device tree
# only; its variable for a board without one (the drop-in reads this file).
echo "RPI_LGPIO_REVISION=$(sed -n 's/^Revision\t: //p' /etc/vpi/cpuinfo)" > /etc/vpi/identity.env
mountpoint -q /proc/cpuinfo || mount --bind /etc/vpi/cpuinfo /proc/cpuinfo
fi
modprobe i2c-dev
modprobe i2c-stub chip_addr=0x3c
# The voice's sound cards are not loaded here: the harness loads them long after the
# table started (the_voice), as a sound driver probed late or a USB speaker would come.
mountpoint -q /sys/kernel/tracing || mount -t tracefs nodev /sys/kernel/tracing
cd /sys/kernel/tracing
echo 16384 > buffer_size_kb
echo 1 > events/smbus/smbus_write/enable
if [ "$PANEL" = spi ]; then
    # SPI0 (spi-stub, with spidev on spi0.0 as dtparam=spi=on gives) comes up a few
    # seconds after this, as a slow driver's would: the table's unit must wait for it.
    echo 1 > events/spi/spi_message_done/enable
    modprobe spidev 2>/dev/null || true  # a module on bookworm, built in on trixie
    # (A timer's AccuracySec is a minute unless set: "3 s" came 17-21 s late.)
    systemd-run --no-block --unit=vpi-spi0 --on-active=3 --timer-property=AccuracySec=100ms \
        /bin/sh -ec \
        'modprobe spi-stub; echo spidev > /sys/bus/spi/devices/spi0.0/driver_override
         echo spi0.0 > /sys/bus/spi/drivers/spidev/bind'
fi
echo 1 > tracing_on
udevadm settle || true
# A name sudo can resolve.
grep -q robinson-vpi /etc/hosts || echo "127.0.1.1 robinson-vpi" >> /etc/hosts
echo "vpi-hardware: $BOARD, $PANEL panel, gpio $(cat $SIM/bank*/chip_name | tr '\n' ' ')i2c $(ls /sys/class/i2c-dev | tr '\n' ' ')"
