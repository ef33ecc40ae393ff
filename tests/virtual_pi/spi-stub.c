// SPDX-License-Identifier: GPL-2.0
/*
 * The virtual Pi's SPI0 (test harness only): an SPI controller with nothing on its
 * wires, bus 0, one chip select, and a device on it (spi0.0) for spidev to take
 * (driver_override), so /dev/spidev0.0 is there as on a Pi with dtparam=spi=on. A
 * transfer takes no time and goes nowhere; the SPI core's trace events
 * (spi_transfer_start, spi_message_done) are how the tests see what was sent.
 */
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/spi/spi.h>
#include <linux/version.h>

static struct platform_device *board;
static struct spi_controller *controller;
static struct spi_device *panel;

static int stub_transfer_one(struct spi_controller *ctlr, struct spi_device *spi,
			     struct spi_transfer *xfer)
{
	return 0;  /* done at once: nothing waits on the wires */
}

static void stub_set_cs(struct spi_device *spi, bool enable)
{
}

static int __init spi_stub_init(void)
{
	struct spi_board_info info = {
		.modalias = "robinson-stub",
		.max_speed_hz = 52000000,
		.bus_num = 0,
		.chip_select = 0,
		.mode = SPI_MODE_0,
	};
	int err;

	board = platform_device_register_simple("spi-stub", -1, NULL, 0);
	if (IS_ERR(board))
		return PTR_ERR(board);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
	controller = spi_alloc_host(&board->dev, 0);
#else
	controller = spi_alloc_master(&board->dev, 0);
#endif
	if (!controller) {
		err = -ENOMEM;
		goto no_controller;
	}
	controller->bus_num = 0;
	controller->num_chipselect = 1;
	controller->mode_bits = SPI_CPOL | SPI_CPHA | SPI_CS_HIGH | SPI_NO_CS;
	controller->bits_per_word_mask = SPI_BPW_MASK(8);
	controller->transfer_one = stub_transfer_one;
	controller->set_cs = stub_set_cs;
	err = spi_register_controller(controller);
	if (err)
		goto not_registered;
	panel = spi_new_device(controller, &info);
	if (!panel) {
		err = -ENODEV;
		goto no_device;
	}
	return 0;

no_device:
	spi_unregister_controller(controller);
	goto no_controller;
not_registered:
	spi_controller_put(controller);
no_controller:
	platform_device_unregister(board);
	return err;
}

static void __exit spi_stub_exit(void)
{
	spi_unregister_device(panel);
	spi_unregister_controller(controller);
	platform_device_unregister(board);
}

module_init(spi_stub_init);
module_exit(spi_stub_exit);
MODULE_DESCRIPTION("The virtual Pi's SPI0: a controller with nothing on its wires");
MODULE_LICENSE("GPL");
