module github.com/wayfarerhq/wayfarer/client

go 1.24
