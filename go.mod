module orogen

go 1.25.0
