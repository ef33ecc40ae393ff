#!/bin/sh
# The virtual Pi's hardware, brought up at boot before the table starts (test harness
# only; on a Pi the kernel does this): a 58-line GPIO chip (gpio-sim, as gpiochip0),
# an SSD1306 answering at 0x3C on I2C bus 1 (i2c-stub), and the kernel's trace of
# every SMBus write, which is how the tests read back what reached the panel.
set -eu
modprobe configfs
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
modprobe gpio-sim
SIM=/sys/kernel/config/gpio-sim/pi
if [ ! -d "$SIM" ]; then
    mkdir "$SIM" "$SIM/bank0"
    echo 58 > "$SIM/bank0/num_lines"
    # The label a Pi 3's kernel gives the header's controller: the table finds its
    # chip by it (firmware/gpiochip.py), as it would on the board.
    echo pinctrl-bcm2835 > "$SIM/bank0/label"
    echo 1 > "$SIM/live"
fi
modprobe i2c-dev
modprobe i2c-stub chip_addr=0x3c
mountpoint -q /sys/kernel/tracing || mount -t tracefs nodev /sys/kernel/tracing
cd /sys/kernel/tracing
echo 16384 > buffer_size_kb
echo 1 > events/smbus/smbus_write/enable
echo 1 > tracing_on
udevadm settle || true
# The board's identity for commands run by hand (the service has its own drop-in,
# since it mounts a /proc of its own), and a name sudo can resolve.
mountpoint -q /proc/cpuinfo || mount --bind /etc/vpi/cpuinfo /proc/cpuinfo
grep -q robinson-vpi /etc/hosts || echo "127.0.1.1 robinson-vpi" >> /etc/hosts
echo "vpi-hardware: gpiochip $(cat $SIM/bank0/chip_name), i2c $(ls /sys/class/i2c-dev | tr '\n' ' ')"
