/*
 * png.c - the map's pixels encoded as PNG with libpng: in full colour
 * for the attachment, or as a palette of at most 64 colours chosen by
 * libimagequant for a report mail's inline map (see png.h).
 */
#include "map/png.h"

#include <png.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libimagequant.h>

void
map_mb_put(struct membuf *m, const void *d, size_t n)
{
	if (m->failed)
		return;
	if (m->len + n > m->cap) {
		size_t cap = m->cap ? m->cap : 64 * 1024;
		unsigned char *np = NULL;

		while (cap < m->len + n)
			cap *= 2;
		if ((np = realloc(m->p, cap)) == NULL) {
			m->failed = 1;
			return;
		}
		m->p = np;
		m->cap = cap;
	}
	memcpy(m->p + m->len, d, n);
	m->len += n;
}

static void
png_to_mem(png_structp png, png_bytep d, png_size_t n)
{
	map_mb_put(png_get_io_ptr(png), d, n);
}

static void
png_flush_none(png_structp png)
{
	(void)png;
}

/* Writes the image surface as an RGB PNG with libpng.  Cairo's own writer
 * lets libpng try every row filter on every row, which took three
 * quarters of a map's time; a map of flat colours compresses as well with
 * the one filter that compares a row with the one above. */
int
map_png_rgb(cairo_surface_t *sf, struct membuf *out, struct err *e)
{
	int w = cairo_image_surface_get_width(sf);
	int h = cairo_image_surface_get_height(sf);
	int stride = cairo_image_surface_get_stride(sf);
	const unsigned char *data;
	unsigned char *row = malloc((size_t)w * 3);
	png_structp png = NULL;
	png_infop info = NULL;
	int y, x;

	cairo_surface_flush(sf);
	data = cairo_image_surface_get_data(sf);
	if (row == NULL || data == NULL) {
		free(row);
		return err_set(e, ERR_TEMP, "out of memory writing the map");
	}
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	if (png != NULL)
		info = png_create_info_struct(png);
	if (png == NULL || info == NULL || setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		free(row);
		return err_set(e, ERR_TEMP, "cannot encode the map as PNG");
	}
	png_set_write_fn(png, out, png_to_mem, png_flush_none);
	png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8,
	    PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
	    PNG_FILTER_TYPE_DEFAULT);
	png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_UP);
	/* Level 2 of zlib: a third of the default's time for a map of flat
	 * colours, and a file a tenth larger. */
	png_set_compression_level(png, 2);
	png_write_info(png, info);
	for (y = 0; y < h; y++) {
		const uint32_t *px = (const uint32_t *)(const void *)(data +
		    (size_t)y * (size_t)stride);

		for (x = 0; x < w; x++) {
			row[3 * x] = (unsigned char)(px[x] >> 16);
			row[3 * x + 1] = (unsigned char)(px[x] >> 8);
			row[3 * x + 2] = (unsigned char)px[x];
		}
		png_write_row(png, row);
	}
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	free(row);
	if (out->failed)
		return err_set(e, ERR_TEMP, "out of memory writing the map");
	return 0;
}

/* Writes the image surface as a PNG of at most 256 colours, chosen by
 * libimagequant with fixed settings and no dithering, so that the same
 * map gives the same bytes: a map of flat colours loses little, and the
 * file is a third the size of the RGB one (a report mail's inline map). */
int
map_png_palette(cairo_surface_t *sf, struct membuf *out, struct err *e)
{
	int w = cairo_image_surface_get_width(sf);
	int h = cairo_image_surface_get_height(sf);
	int stride = cairo_image_surface_get_stride(sf);
	const unsigned char *data;
	unsigned char *rgba = NULL, *idx = NULL;
	unsigned char **rows = NULL;
	liq_attr *attr = NULL;
	liq_image *img = NULL;
	liq_result *res = NULL;
	const liq_palette *pal;
	png_structp png = NULL;
	png_infop info = NULL;
	png_color plte[256];
	int x, y, rc = 0;
	unsigned i;

	cairo_surface_flush(sf);
	data = cairo_image_surface_get_data(sf);
	rgba = malloc((size_t)w * (size_t)h * 4);
	idx = malloc((size_t)w * (size_t)h);
	rows = malloc((size_t)h * sizeof(*rows));
	if (data == NULL || rgba == NULL || idx == NULL || rows == NULL) {
		rc = err_set(e, ERR_TEMP, "out of memory writing the map");
		goto out;
	}
	for (y = 0; y < h; y++) {
		const uint32_t *px = (const uint32_t *)(const void *)(data +
		    (size_t)y * (size_t)stride);
		unsigned char *o = rgba + (size_t)y * (size_t)w * 4;

		for (x = 0; x < w; x++) {
			o[4 * x] = (unsigned char)(px[x] >> 16);
			o[4 * x + 1] = (unsigned char)(px[x] >> 8);
			o[4 * x + 2] = (unsigned char)px[x];
			o[4 * x + 3] = 255;
		}
		rows[y] = idx + (size_t)y * (size_t)w;
	}
	attr = liq_attr_create();
	if (attr == NULL || liq_set_speed(attr, 8) != LIQ_OK ||
	    liq_set_max_colors(attr, 64) != LIQ_OK ||
	    (img = liq_image_create_rgba(attr, rgba, w, h, 0)) == NULL ||
	    liq_image_quantize(img, attr, &res) != LIQ_OK ||
	    liq_set_dithering_level(res, 0.0f) != LIQ_OK ||
	    liq_write_remapped_image(res, img, idx, (size_t)w * (size_t)h) !=
	    LIQ_OK || (pal = liq_get_palette(res)) == NULL) {
		rc = err_set(e, ERR_TEMP, "cannot reduce the map's colours");
		goto out;
	}
	for (i = 0; i < pal->count && i < 256; i++) {
		plte[i].red = pal->entries[i].r;
		plte[i].green = pal->entries[i].g;
		plte[i].blue = pal->entries[i].b;
	}
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	if (png != NULL)
		info = png_create_info_struct(png);
	if (png == NULL || info == NULL || setjmp(png_jmpbuf(png))) {
		rc = err_set(e, ERR_TEMP, "cannot encode the map as PNG");
		goto out;
	}
	png_set_write_fn(png, out, png_to_mem, png_flush_none);
	png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8,
	    PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE,
	    PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_set_PLTE(png, info, plte, (int)i);
	/* Palette indices compress best unfiltered, and at zlib's 9: the
	 * file is what matters here, and it is a small one. */
	png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
	png_set_compression_level(png, 9);
	png_write_info(png, info);
	png_write_image(png, rows);
	png_write_end(png, NULL);
	if (out->failed)
		rc = err_set(e, ERR_TEMP, "out of memory writing the map");
out:
	png_destroy_write_struct(&png, &info);
	if (res != NULL)
		liq_result_destroy(res);
	if (img != NULL)
		liq_image_destroy(img);
	if (attr != NULL)
		liq_attr_destroy(attr);
	free(rows);
	free(idx);
	free(rgba);
	return rc;
}

