/* A stand-in for the kernel's spidev driver, preloaded into the board's process in the
 * arm64 userland check (scripts/pi_userland.sh), where /dev/spidev0.0 is a regular file.
 *
 * The SPI ioctls on a file named /dev/spidev* are answered here: the mode, word size and
 * clock are kept as the driver keeps them, and every transfer is written, one line each
 * (its length, clock, how many bytes are not zero and a checksum), to the file named by
 * FAKE_SPIDEV_LOG. Every
 * other ioctl goes to the C library. Build: gcc -shared -fPIC -o fake_spidev.so
 * fake_spidev.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SPI_MAGIC 'k'
#define IOC_TYPE(request) (((request) >> 8) & 0xff)
#define IOC_NR(request) ((request) & 0xff)
#define IOC_SIZE(request) (((request) >> 16) & 0x3fff)
#define IOC_READS(request) (((request) >> 31) & 1)

/* struct spi_ioc_transfer of <linux/spi/spidev.h>: 32 bytes on every architecture. */
struct transfer {
    uint64_t tx_buf;
    uint64_t rx_buf;
    uint32_t len;
    uint32_t speed_hz;
    uint16_t delay_usecs;
    uint8_t bits_per_word;
    uint8_t cs_change;
    uint8_t tx_nbits;
    uint8_t rx_nbits;
    uint8_t word_delay_usecs;
    uint8_t pad;
};

/* What the driver keeps per device, indexed by the ioctl number (mode, lsb, bits, speed,
 * mode32). */
static uint32_t settings[8] = {0, 0, 8, 500000, 0, 0, 0, 0};

static int is_spidev(int fd) {
    char link[64], path[256];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, path, sizeof path - 1);
    if (length < 0) return 0;
    path[length] = '\0';
    return strncmp(path, "/dev/spidev", 11) == 0;
}

static void record(const struct transfer *transfer) {
    const char *name = getenv("FAKE_SPIDEV_LOG");
    if (name == NULL) return;
    FILE *log = fopen(name, "a");
    if (log == NULL) return;
    const uint8_t *bytes = (const uint8_t *)(uintptr_t)transfer->tx_buf;
    /* The frame's reset pause is zeros: its count of other bytes and their checksum tell
     * one frame's colours from another's. */
    uint32_t lit = 0, sum = 0;
    for (uint32_t i = 0; bytes != NULL && i < transfer->len; i++) {
        if (bytes[i] != 0) lit++;
        sum = sum * 31 + bytes[i];
    }
    fprintf(log, "transfer %u bytes at %u Hz: %u not zero, checksum %08x\n", transfer->len,
            transfer->speed_hz, lit, sum);
    fclose(log);
}

static int spi_ioctl(unsigned long request, void *argument) {
    unsigned number = IOC_NR(request);
    if (number == 0) { /* SPI_IOC_MESSAGE(n): n transfers in a row */
        const struct transfer *transfers = argument;
        size_t count = IOC_SIZE(request) / sizeof(struct transfer);
        int total = 0;
        for (size_t i = 0; i < count; i++) {
            record(&transfers[i]);
            total += (int)transfers[i].len;
        }
        return total;
    }
    if (number >= 8) return -1;
    size_t size = IOC_SIZE(request);
    if (IOC_READS(request)) {
        memcpy(argument, &settings[number], size < 4 ? size : 4);
    } else {
        uint32_t value = 0;
        memcpy(&value, argument, size < 4 ? size : 4);
        settings[number] = value;
    }
    return 0;
}

int ioctl(int fd, unsigned long request, ...) {
    va_list arguments;
    va_start(arguments, request);
    void *argument = va_arg(arguments, void *);
    va_end(arguments);
    if (IOC_TYPE(request) == SPI_MAGIC && is_spidev(fd)) return spi_ioctl(request, argument);
    static int (*real_ioctl)(int, unsigned long, ...);
    if (real_ioctl == NULL) real_ioctl = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
    return real_ioctl(fd, request, argument);
}
